import path from 'node:path';

/** Where all repositories live. */
export const repositoriesRoot = (dataDir: string): string => path.join(dataDir, 'repositories');

/**
 * A project's bare repository, addressed by id so that renames and transfers move no files.
 * Sharded by `id % 100` so that no directory grows to millions of entries.
 */
export function repositoryPath(dataDir: string, projectId: number): string {
  if (!Number.isSafeInteger(projectId) || projectId <= 0) throw new RangeError(`not a project id: ${projectId}`);
  return path.join(repositoriesRoot(dataDir), String(projectId % 100), `${projectId}.git`);
}

/**
 * A path inside a repository's tree, normalised: no leading or doubled `/`, no `.` segments.
 * Undefined when it would climb out (`..`) or holds bytes git paths cannot hold.
 * The empty string is the root.
 */
export function normalizeRepoPath(value: string): string | undefined {
  if (value.includes('\0') || value.includes('\n')) return undefined;
  const segments = value.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) return undefined;
  return segments.join('/');
}
