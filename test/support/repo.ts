import type { TestApp } from './app';
import { commitFiles, type FileChange } from '../../src/git/commit-files';
import { blobInfoAtPath } from '../../src/git/blob-read';
import { resolveCommitId } from '../../src/git/commits';
import { repoPathOf } from '../../src/services/repository/repositories';
import { refsMoved } from '../../src/services/repository/refs-version';

export interface SeedCommit {
  /** Default `master`. */
  branch?: string;
  /** Files to write (created or updated). */
  files?: Record<string, string | Buffer>;
  /** Files to delete. */
  deletes?: string[];
  message?: string;
  /** Author and committer time (default now). */
  time?: Date;
  author?: { name: string; email: string };
  /** Where a new branch starts (default: a root commit). */
  startRef?: string;
}

/**
 * Writes a commit straight into a project's bare repository (faster than a push, no hooks or
 * events) and returns its sha. Like every writer of refs it bumps the project's refs version, so
 * that the server's kept branches and tags are read again.
 */
export async function seedCommit(app: TestApp, projectId: number, commit: SeedCommit = {}): Promise<string> {
  const repoPath = repoPathOf(app.ctx, projectId);
  const branch = commit.branch ?? 'master';
  const parent =
    (await resolveCommitId(app.ctx.git, repoPath, `refs/heads/${branch}`)) ??
    (commit.startRef ? await resolveCommitId(app.ctx.git, repoPath, commit.startRef) : undefined);
  const entries = Object.entries(commit.files ?? {});
  const existing = await Promise.all(entries.map(([path]) => (parent ? blobInfoAtPath(app.ctx.git, repoPath, parent, path) : undefined)));
  const changes: FileChange[] = [
    ...entries.map(
      ([path, content], index): FileChange => ({ action: existing[index] ? 'update' : 'create', path, content: Buffer.from(content) }),
    ),
    ...(commit.deletes ?? []).map((path): FileChange => ({ action: 'delete', path })),
  ];
  const author = { ...(commit.author ?? { name: 'Ada Tester', email: 'ada@example.com' }), time: commit.time };
  const result = await commitFiles(app.ctx.git, repoPath, {
    branch,
    changes,
    message: commit.message ?? 'a commit\n',
    author,
    startRef: commit.startRef,
  });
  await refsMoved(app.ctx, { id: projectId });
  return result.commitId;
}

/** Several commits in order; their shas in the same order. */
export async function seedCommits(app: TestApp, projectId: number, commits: SeedCommit[]): Promise<string[]> {
  const shas: string[] = [];
  for (const commit of commits) shas.push(await seedCommit(app, projectId, commit));
  return shas;
}

/** A project of root's with a README on master, for tests that only need a project to aim requests at. */
export async function createRootProject(app: TestApp, name: string): Promise<{ id: number; head: string }> {
  const created = await app.root.post('/projects', { name });
  if (created.status !== 201) throw new Error(`project creation failed: ${created.status} ${JSON.stringify(created.body)}`);
  const head = await seedCommit(app, created.body.id, { files: { 'README.md': 'hello\n' } });
  return { id: created.body.id, head };
}
