/**
 * The command line an SSH client asks to run, read strictly: no shell ever sees it. Only git's
 * own commands (and git-lfs's) on a `namespace/project(.git)` path are understood, written as
 * git and git-lfs write them: the command, then the path (bare or in single quotes), then for
 * git-lfs-authenticate the operation.
 */

export type GitSshService = 'upload-pack' | 'receive-pack' | 'upload-archive';

export type SshCommand =
  | { kind: 'git'; service: GitSshService; path: string }
  | { kind: 'lfs-authenticate'; path: string; operation: 'download' | 'upload' };

export const COMMAND_REFUSALS = {
  unknown: 'This server runs only git-upload-pack, git-receive-pack, git-upload-archive and git-lfs-authenticate on a project path.',
  path: "Not a project path: give 'namespace/project.git'.",
  lfsOperation: 'git-lfs-authenticate takes a project path and download or upload.',
} as const;

const SERVICES: Record<string, GitSshService> = {
  'git-upload-pack': 'upload-pack',
  'git-receive-pack': 'receive-pack',
  'git-upload-archive': 'upload-archive',
};

/** A word as git sends it: bare, or single-quoted with no quote inside (git quotes a path holding one as `'\''`, which no project path holds). */
const WORD = /^(?:'([^'\\]*)'|([A-Za-z0-9_./~-]+))$/;
/** One path segment as GitLab 8.12 allows namespace and project paths. */
const SEGMENT = /^[A-Za-z0-9_.][A-Za-z0-9_.-]*$/;
const MAX_COMMAND = 1024;

/** The command, or the refusal its client is shown. */
export function parseSshCommand(line: string): SshCommand | { refusal: string } {
  if (line.length > MAX_COMMAND) return { refusal: COMMAND_REFUSALS.unknown };
  const words = line.trim().split(/ +/);
  // `git upload-pack …` (a space, not a dash) is what some clients send.
  if (words[0] === 'git' && words.length > 1) words.splice(0, 2, `git-${words[1]}`);
  const [name, ...args] = words;
  const values = args.map((word) => WORD.exec(word)).map((match) => (match ? (match[1] ?? match[2]) : undefined));
  const service = SERVICES[name];
  if (service) {
    if (values.length !== 1) return { refusal: COMMAND_REFUSALS.unknown };
    const path = projectPath(values[0]);
    return path ? { kind: 'git', service, path } : { refusal: COMMAND_REFUSALS.path };
  }
  if (name === 'git-lfs-authenticate') {
    if (values.length !== 2) return { refusal: COMMAND_REFUSALS.lfsOperation };
    const path = projectPath(values[0]);
    if (!path) return { refusal: COMMAND_REFUSALS.path };
    const operation = values[1];
    if (operation !== 'download' && operation !== 'upload') return { refusal: COMMAND_REFUSALS.lfsOperation };
    return { kind: 'lfs-authenticate', path, operation };
  }
  return { refusal: COMMAND_REFUSALS.unknown };
}

/** `namespace/project` from `/namespace/project.git/` and its shorter spellings; undefined for anything else (`..`, `~`, deeper paths). */
function projectPath(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value
    .replace(/^\//, '')
    .replace(/\/$/, '')
    .replace(/\.git$/, '');
  const segments = trimmed.split('/');
  if (segments.length !== 2) return undefined;
  if (!segments.every((segment) => SEGMENT.test(segment) && segment !== '.' && segment !== '..')) return undefined;
  return trimmed;
}
