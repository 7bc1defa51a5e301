import type { RefUpdate } from '../git/ref-update';

/**
 * What the smart HTTP door needs from the rest of Forge, injected so that it knows nothing of the
 * database: find a project, check a password, decide access, check and record pushes.
 */

export interface GitHttpProject {
  id: number;
  /** The bare repository on disk. */
  repoPath: string;
}

export type GitAction = 'read' | 'write';

/**
 * `unauthorized`: ask for credentials (401); `not_found`: hide the project (404);
 * `forbidden`: the caller may see the project but not do this (403).
 */
export type GitAccess = 'ok' | 'unauthorized' | 'not_found' | 'forbidden';

/** The ref update type is git's own (`src/git/ref-update.ts`); re-exported for the door's users. */
export type { RefUpdate } from '../git/ref-update';

/** A refused ref update and the reason `git push` shows for it. */
export interface PushRejection {
  ref: string;
  message: string;
}

export interface PushCheck {
  /** Any rejection refuses the whole push (as GitLab's pre-receive check did); each rejected ref shows its message. */
  rejections?: PushRejection[];
  /**
   * Refs (protected branches) that may only move forward: whether an update is a force push is
   * known only once the pack is in, so git checks it and refuses the whole push with `message`.
   */
  fastForwardOnly?: { refs: string[]; message: string };
}

export interface GitHttpBackend<User = unknown, Project extends GitHttpProject = GitHttpProject> {
  /** The project at `/<namespace>/<project>` (`.git` already removed), or undefined. */
  resolveProject(namespace: string, project: string): Promise<Project | undefined>;
  /** The user these HTTP Basic credentials (password or private token) belong to, or undefined. */
  authenticate(username: string, password: string): Promise<User | undefined>;
  /** Whether this caller (null: anonymous) may read (clone, fetch) or write (push). */
  access(user: User | null, project: Project, action: GitAction): Promise<GitAccess>;
  /** Called with a push's ref updates before git sees the pack. */
  checkPush(user: User, project: Project, updates: RefUpdate[]): Promise<PushCheck | undefined>;
  /** Called once git has applied a push, with the updates that took effect. Awaited before the push answer ends. */
  afterPush(user: User, project: Project, updates: RefUpdate[]): Promise<void>;
}
