import { randomBytes } from 'node:crypto';
import { GitCommandError } from './errors';
import { PooledGitProcess, ProcessPool, type ProcessPoolStats } from './process-pool';

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const EMPTY = Buffer.alloc(0);
const FIRST_BUFFER = 16 * 1024;
const COLON = 0x3a;
const NEWLINE = 0x0a;
const SPACE = 0x20;
const RENAMED = 0x52; // R
const COPIED = 0x43; // C

interface DiffRequest {
  /** `<from> <to>\n`: the line git reads, and the line it prints first when it could read both trees. */
  line: Buffer;
  maxBytes: number;
  resolve: (output: Buffer | undefined) => void;
  reject: (error: Error) => void;
}

/**
 * One long-lived `git diff-tree --stdin -z --raw -p …`. It is asked one pair of trees at a time,
 * each followed by an end line (`%forge-end <random>`): git echoes a line that does not start with
 * an object id, and flushes after it. An answer is then either the end line alone (git could not
 * read a tree: it said why on stderr), or
 *
 *   `<from> <to>\n`                        the pair, as git prints it before the diff of two trees
 *   (`:modes oids status\0path\0[path\0]`)* the raw records: paths are raw bytes, newlines included,
 *                                          so they are walked record by record, never searched
 *   [`\0` patch]                           every line of a patch begins with `diff --git`, an extended
 *                                          header (`index`, `rename from` … with C-quoted names),
 *                                          `---`, `+++`, `@@`, `Binary files`, or with ` `, `+`, `-`,
 *                                          `\` before file content: never with `%`
 *   `%forge-end <random>\n`
 *
 * so once the raw records are behind, the first `\n%forge-end <random>\n` is the end. The random part
 * is a second lock: content would have to guess it as well as break git's line prefixes.
 */
class DiffTreeProcess extends PooledGitProcess {
  private readonly queue: DiffRequest[] = [];
  /** The end line, and the end line after the patch's last newline. */
  private readonly end: Buffer;
  private readonly endAfterLine: Buffer;
  private served = 0;
  /** The answer being read: `output[0, filled)`, walked up to `parsed`. */
  private output = EMPTY;
  private filled = 0;
  private parsed = 0;
  private phase: 'pair' | 'raw' | 'patch' = 'pair';

  constructor(
    repoPath: string,
    args: string[],
    idleMs: number,
    private readonly maxRequests: number,
    marker: string,
    onGone: (process: PooledGitProcess) => void,
    /** Where requests go that this process will no longer answer and never started. */
    private readonly resend: (request: DiffRequest) => void,
  ) {
    super(repoPath, args, idleMs, onGone);
    const end = `%forge-end ${marker}\n`;
    this.end = Buffer.from(end);
    this.endAfterLine = Buffer.from(`\n${end}`);
  }

  enqueue(request: DiffRequest): void {
    this.busy();
    this.queue.push(request);
    if (this.queue.length === 1) this.send();
  }

  /** A process closed while it still owes answers ends its input after the last one. */
  protected override endInput(): void {
    if (this.queue.length === 0) this.child.stdin.end();
  }

  protected onData(chunk: Buffer): void {
    const request = this.queue[0];
    if (!request) {
      // What a killed process still had in the pipe is nobody's.
      if (!this.isClosing) this.protocolError('output with no request');
      return;
    }
    if (this.filled + chunk.length > request.line.length + request.maxBytes + this.end.length) return this.tooLarge();
    this.append(chunk, request.line.length + request.maxBytes + this.end.length);
    this.parse(request);
  }

  protected onExit(code: number | null): void {
    const error = new GitCommandError(this.args, code, this.stderr || 'diff-tree exited');
    const [current, ...waiting] = this.queue.splice(0);
    this.reset();
    current?.reject(error);
    for (const request of waiting) this.resend(request);
  }

  private send(): void {
    this.child.stdin.write(Buffer.concat([this.queue[0].line, this.end]));
  }

  private append(chunk: Buffer, limit: number): void {
    const needed = this.filled + chunk.length;
    if (needed > this.output.length) {
      const grown = Buffer.allocUnsafe(Math.min(Math.max(needed, 2 * this.output.length, FIRST_BUFFER), limit));
      this.output.copy(grown, 0, 0, this.filled);
      this.output = grown;
    }
    chunk.copy(this.output, this.filled);
    this.filled = needed;
  }

  private parse(request: DiffRequest): void {
    const view = this.output.subarray(0, this.filled);
    if (this.phase === 'pair') {
      const newline = view.indexOf(NEWLINE);
      if (newline === -1) return;
      const first = view.subarray(0, newline + 1);
      if (first.equals(this.end)) return this.finish(new GitCommandError(this.args, null, `cannot diff ${request.line.toString().trim()}`));
      if (!first.equals(request.line)) return this.protocolError(`unexpected first line: ${first.toString('utf8', 0, 200)}`);
      this.parsed = first.length;
      this.phase = 'raw';
    }
    if (this.phase === 'raw') {
      while (this.parsed < view.length) {
        const at = this.parsed;
        if (view[at] === 0) {
          this.parsed = at + 1;
          this.phase = 'patch';
          break;
        }
        if (view[at] !== COLON) {
          // No patch: this is the end line, once it is all there.
          if (view.length - at < this.end.length) return;
          if (view.length - at === this.end.length && view.subarray(at).equals(this.end))
            return this.finish(view.subarray(request.line.length, at));
          return this.protocolError('unexpected output after the raw records');
        }
        const next = recordEnd(view, at);
        if (next === undefined) return;
        this.parsed = next;
      }
    }
    if (this.phase === 'patch') {
      const found = view.indexOf(this.endAfterLine, this.parsed);
      if (found === -1) {
        this.parsed = Math.max(this.parsed, view.length - this.endAfterLine.length + 1);
        return;
      }
      if (found + this.endAfterLine.length !== view.length) return this.protocolError('output after the end line');
      this.finish(view.subarray(request.line.length, found + 1));
    }
  }

  /** The answer to the request in flight; the next one is sent. */
  private finish(answer: Buffer | GitCommandError): void {
    const request = this.queue.shift()!;
    this.reset();
    if (answer instanceof GitCommandError) request.reject(answer);
    else request.resolve(answer.length > request.maxBytes ? undefined : answer);
    if (this.queue.length > 0) this.send();
    else if (this.isClosing) this.child.stdin.end();
    else this.idle();
    this.served += 1;
    if (this.served >= this.maxRequests) this.close();
  }

  /** Past the caller's limit the answer is abandoned with the process, as a one-off git is killed. */
  private tooLarge(): void {
    const [current, ...waiting] = this.queue.splice(0);
    this.reset();
    this.kill();
    current.resolve(undefined);
    for (const request of waiting) this.resend(request);
  }

  private protocolError(message: string): void {
    const [current, ...waiting] = this.queue.splice(0);
    this.reset();
    this.kill();
    current?.reject(new GitCommandError(this.args, null, message));
    for (const request of waiting) this.resend(request);
  }

  private reset(): void {
    this.output = EMPTY;
    this.filled = 0;
    this.parsed = 0;
    this.phase = 'pair';
  }
}

/** Where the raw record starting at `at` ends (after its last NUL), or undefined when it is not all there. */
function recordEnd(view: Buffer, at: number): number | undefined {
  const header = view.indexOf(0, at);
  if (header === -1) return undefined;
  // `:100644 100644 <oid> <oid> R087`: a rename or copy names two paths.
  const status = view[view.lastIndexOf(SPACE, header) + 1];
  let next = header + 1;
  for (let paths = status === RENAMED || status === COPIED ? 2 : 1; paths > 0; paths -= 1) {
    const end = view.indexOf(0, next);
    if (end === -1) return undefined;
    next = end + 1;
  }
  return next;
}

export interface DiffTreePoolOptions {
  /** Processes kept at most; the least recently used one is closed first. */
  maxProcesses?: number;
  /** An unused process ends after this long. */
  idleMs?: number;
  /** A process is replaced after answering this many: git keeps what it parsed (~8 KiB a diff) for its lifetime. */
  maxRequests?: number;
  /** The end line's random part; tests fix it to write it into files and file names. */
  marker?: string;
}

/**
 * Long-lived `git diff-tree --stdin` processes, one per recently used repository, so that a diff
 * costs a pipe round trip instead of a process. Each answers one request at a time, in order.
 */
export class DiffTreePool {
  private readonly processes: ProcessPool<DiffTreeProcess>;

  /** `args`: a `diff-tree` command line printing `-z --raw` records and a patch (`-p`); `--stdin` is added. */
  constructor(args: string[], options: DiffTreePoolOptions = {}) {
    const idleMs = options.idleMs ?? 10_000;
    const maxRequests = options.maxRequests ?? 200;
    const command = [...args, '--stdin'];
    const resend = (repoPath: string) => (request: DiffRequest) => this.processes.get(repoPath).enqueue(request);
    this.processes = new ProcessPool(
      options.maxProcesses ?? 16,
      (repoPath, onGone) =>
        new DiffTreeProcess(
          repoPath,
          command,
          idleMs,
          maxRequests,
          options.marker ?? randomBytes(12).toString('hex'),
          onGone,
          resend(repoPath),
        ),
    );
  }

  /**
   * What `git diff-tree <args> <from> <to>` prints for two trees (full ids), or undefined past `maxBytes`
   * of it. Rejects when git cannot read a tree or its process fails; requests behind it are unaffected.
   */
  diff(repoPath: string, fromTree: string, toTree: string, maxBytes: number): Promise<Buffer | undefined> {
    if (!OID.test(fromTree) || !OID.test(toTree)) return Promise.reject(new Error(`not tree ids: ${fromTree} ${toTree}`));
    return new Promise((resolve, reject) => {
      this.processes.get(repoPath).enqueue({ line: Buffer.from(`${fromTree} ${toTree}\n`), maxBytes, resolve, reject });
    });
  }

  /** Ends the repository's process (before the repository is deleted or replaced). */
  close(repoPath: string): void {
    this.processes.close(repoPath);
  }

  closeAll(): Promise<void> {
    return this.processes.closeAll();
  }

  /** Repositories with a live process, for diagnostics and tests. */
  active(): Array<{ repoPath: string; pid: number | undefined }> {
    return this.processes.active();
  }

  stats(): ProcessPoolStats {
    return this.processes.stats();
  }
}
