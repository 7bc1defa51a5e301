/** A git process ended badly: the command, its exit code and what it said. */
export class GitCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(
      `git ${args.filter((arg) => !arg.startsWith('--git-dir=')).join(' ')} failed (${code ?? 'killed'}): ${stderr.trim().slice(0, 500)}`,
    );
  }
}

/** Why a store operation refused; services map each code to GitLab's message. */
export type GitFailure =
  | 'repository_exists'
  | 'repository_missing'
  | 'invalid_ref_name'
  | 'invalid_revision'
  /** Creating a ref that is already there. */
  | 'ref_exists'
  | 'ref_missing'
  /** The ref no longer has the value the caller read: someone else wrote first; read again and retry. */
  | 'ref_moved'
  /** `refs/heads/a` blocks `refs/heads/a/b` and the other way round. */
  | 'ref_name_conflict'
  | 'invalid_path'
  | 'file_exists'
  | 'file_missing'
  /** A file stands where a directory is needed, or a directory where a file is. */
  | 'path_conflict'
  | 'invalid_identity'
  /** A commit or tag message git cannot store (a NUL byte). */
  | 'invalid_message'
  | 'invalid_url'
  | 'import_failed';

export class GitStoreError extends Error {
  constructor(
    readonly code: GitFailure,
    message: string,
  ) {
    super(message);
  }
}
