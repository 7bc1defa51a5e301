import { badRequest } from '../../errors';
import type { FileChange } from '../../git/commit-files';
import { GitStoreError } from '../../git/errors';
import { lastCommitForPath } from '../../git/log';
import type { GitReader } from '../../git/reader';

/** One action of a commit made through the API (GitLab's `Files::MultiService`, 9.0 and later). */
export interface CommitAction {
  action: 'create' | 'delete' | 'move' | 'update' | 'chmod';
  filePath: string;
  /** Required to move. */
  previousPath?: string;
  content?: string;
  /** `base64`, else text. */
  encoding?: string;
  /** The last commit the client saw touch the file: the commit is refused when another has since. */
  lastCommitId?: string;
  /** Sets or clears the executable bit (required to `chmod`). */
  executeFilemode?: boolean;
}

/** A commit of several actions on `branch`, which `startBranch` (or the branch itself) starts. */
export interface CommitRequest {
  branch: string;
  startBranch?: string;
  commitMessage: string;
  actions: CommitAction[];
  authorEmail?: string;
  authorName?: string;
}

/** The messages of GitLab's commits API of 9.x–11.x (the files API of v4 answers with them too). */
export const COMMIT_MESSAGES = {
  exists: 'A file with this name already exists',
  missing: "A file with this name doesn't exist",
  changed: (path: string) => `The file has changed since you started editing it: ${path}`,
  branchExists: (branch: string) => `A branch called '${branch}' already exists. Switch to that branch in order to make changes`,
  noStartBranch: (branch: string) => `Cannot find start_branch ${branch}`,
  previousPath: (index: number) => `actions[${index}][previous_path] is missing`,
  executeFilemode: (index: number) => `actions[${index}][execute_filemode] is missing`,
};

/** The store's changes for the actions, in their order; an action missing what it needs is 400. */
export function changesOf(actions: CommitAction[]): FileChange[] {
  return actions.map((action, index): FileChange => {
    const content =
      action.content === undefined ? undefined : Buffer.from(action.content, action.encoding === 'base64' ? 'base64' : 'utf8');
    switch (action.action) {
      case 'create':
      case 'update':
        return { action: action.action, path: action.filePath, content: content ?? Buffer.alloc(0), executable: action.executeFilemode };
      case 'delete':
        return { action: 'delete', path: action.filePath };
      case 'move':
        if (action.previousPath === undefined || action.previousPath === '') throw badRequest(COMMIT_MESSAGES.previousPath(index));
        return { action: 'move', path: action.filePath, previousPath: action.previousPath, content, executable: action.executeFilemode };
      case 'chmod':
        if (action.executeFilemode === undefined) throw badRequest(COMMIT_MESSAGES.executeFilemode(index));
        return { action: 'chmod', path: action.filePath, executable: action.executeFilemode };
    }
  });
}

/** Refuses the commit when a file an action names by `last_commit_id` was changed by a later commit on the branch. */
export async function checkLastCommits(
  git: GitReader,
  repoPath: string,
  headId: string | undefined,
  actions: CommitAction[],
): Promise<void> {
  const checked = actions.filter((action) => action.lastCommitId && action.action !== 'create');
  if (headId === undefined || checked.length === 0) return;
  const lasts = await Promise.all(
    checked.map((action) =>
      lastCommitForPath(git, repoPath, headId, action.action === 'move' ? (action.previousPath ?? '') : action.filePath),
    ),
  );
  checked.forEach((action, index) => {
    const last = lasts[index];
    if (last && !last.id.startsWith(action.lastCommitId!.toLowerCase())) throw badRequest(COMMIT_MESSAGES.changed(action.filePath));
  });
}

/** The store's refusals of a commit of actions in GitLab's later words; undefined for the ones both generations share. */
export function actionFailure(error: unknown): unknown {
  if (!(error instanceof GitStoreError)) return undefined;
  if (error.code === 'file_exists') return badRequest(COMMIT_MESSAGES.exists);
  if (error.code === 'file_missing') return badRequest(COMMIT_MESSAGES.missing);
  return undefined;
}
