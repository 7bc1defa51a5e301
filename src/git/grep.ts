import { spawnGit } from './run';

/** One line of a file that holds the searched text. */
export interface GrepMatch {
  path: string;
  /** The line's number in the file (from 1). */
  line: number;
  /** The line's text, cut at `MAX_LINE_CHARS`. */
  text: string;
}

export interface GrepLimits {
  /** Matches kept; git is stopped once this many are read. */
  maxMatches: number;
  /** git is stopped after this long, and what it found so far is the answer. */
  timeoutMs: number;
}

export interface GrepResult {
  matches: GrepMatch[];
  /** More matches were there, or git ran out of time: the answer is a part of them. */
  truncated: boolean;
}

/** What is shown of a line: a minified file's one line is not sent whole. */
export const MAX_LINE_CHARS = 500;
/** Bytes of one field held while it is read (a path or a line); the rest of a longer one is dropped. */
const MAX_FIELD_BYTES = 4 * MAX_LINE_CHARS;

/**
 * The lines of the files of one commit that contain `text`, ignoring case, as `git grep` finds them.
 * The text is always a fixed string given with `-e` (never a pattern, never an option, whatever it
 * holds), binary files are skipped, and git runs in Forge's own environment (`spawnGit`), bounded
 * by a number of matches and a time.
 */
export function grepCommit(repoPath: string, commitId: string, text: string, limits: GrepLimits): Promise<GrepResult> {
  const args = ['grep', '--null', '-n', '-I', '-i', '-F', '--no-color', '--no-textconv', '-e', text, commitId, '--'];
  return new Promise((resolve) => {
    const child = spawnGit(repoPath, args, { signal: AbortSignal.timeout(limits.timeoutMs) });
    const matches: GrepMatch[] = [];
    let truncated = false;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve({ matches, truncated });
    };
    // Each match is `<commit>:<path>\0<line>\0<text>\n`: a path may hold a newline, a line never does.
    const prefix = `${commitId}:`;
    const fields: Buffer[] = [];
    let field: Buffer[] = [];
    let fieldBytes = 0;
    const take = (chunk: Buffer) => {
      if (fieldBytes >= MAX_FIELD_BYTES) return;
      const kept = chunk.subarray(0, MAX_FIELD_BYTES - fieldBytes);
      field.push(kept);
      fieldBytes += kept.length;
    };
    const endField = () => {
      fields.push(Buffer.concat(field));
      field = [];
      fieldBytes = 0;
    };
    const endMatch = () => {
      const [where, number, line] = fields.splice(0).map((part) => part.toString('utf8'));
      if (line === undefined || !where.startsWith(prefix)) return;
      matches.push({ path: where.slice(prefix.length), line: Number(number), text: line.slice(0, MAX_LINE_CHARS) });
    };
    child.stdout.on('data', (chunk: Buffer) => {
      if (done) return;
      let start = 0;
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i];
        // A NUL ends the path and the line number; a newline ends the text (the third field) only.
        if (byte === 0 && fields.length < 2) {
          take(chunk.subarray(start, i));
          endField();
          start = i + 1;
        } else if (byte === 0x0a && fields.length === 2) {
          take(chunk.subarray(start, i));
          endField();
          endMatch();
          start = i + 1;
          if (matches.length >= limits.maxMatches) {
            truncated = true;
            child.kill();
            finish();
            return;
          }
        }
      }
      take(chunk.subarray(start));
    });
    child.stderr.resume();
    child.stdin.end();
    // A timeout aborts git: what was read is the answer, marked as a part.
    child.on('error', () => {
      truncated = true;
      finish();
    });
    // Exit status 1 is "nothing found"; any other failure (an unknown commit) is an empty answer too.
    child.on('close', (_code, signal) => {
      if (signal) truncated = true;
      finish();
    });
  });
}
