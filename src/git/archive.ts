import { PassThrough, type Readable } from 'node:stream';
import { GitCommandError } from './errors';
import { spawnGit } from './run';

export type ArchiveFormat = 'tar' | 'tar.gz' | 'tar.bz2' | 'zip';

/**
 * GitLab's archive format from a requested extension or `format`: `zip`, `tar`, the bzip2 aliases,
 * and `tar.gz` for anything else.
 */
export function archiveFormat(requested: string | undefined): ArchiveFormat {
  const value = (requested ?? '').toLowerCase().replace(/^\./, '');
  if (value === 'zip' || value === 'tar') return value;
  if (['tar.bz2', 'tbz', 'tbz2', 'tb2', 'bz2'].includes(value)) return 'tar.bz2';
  return 'tar.gz';
}

/**
 * The tree of a commit as an archive, streamed as git writes it; every path starts with
 * `prefix` (GitLab: `<project>-<ref>-<sha>/`). The stream fails if git fails; destroying it stops git.
 */
export function archiveStream(repoPath: string, commitId: string, format: ArchiveFormat, prefix: string): Readable {
  // tar.gz is built into git (gzip -n, reproducible); bzip2 is configured as a filter.
  const args = ['-c', 'tar.tar.bz2.command=bzip2 -c', 'archive', `--format=${format}`, `--prefix=${prefix}`, '--end-of-options', commitId];
  const child = spawnGit(repoPath, args);
  const output = new PassThrough();
  let stderr = '';
  child.stdin.end();
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 8192) stderr += chunk.toString('utf8');
  });
  child.stdout.pipe(output, { end: false });
  child.on('error', (error) => output.destroy(error));
  child.on('close', (code) => {
    if (code === 0) output.end();
    else output.destroy(new GitCommandError(args, code, stderr));
  });
  output.on('close', () => {
    if (child.exitCode === null) child.kill();
  });
  return output;
}
