import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { extractZip, writeZip } from './archive';
import { matchArtifactPaths } from './artifact-paths';
import { untrackedFiles, type Workspace } from './build-artifacts';
import type { JobPayload, CacheOptions } from './payload';
import type { TraceUploader } from './trace';
import { expand } from './variables';

/*
 * `cache:` as the runner's shell executor keeps it (shells/abstract.go: cacheFile, cacheExtractor,
 * cacheArchiver), with the archive on this machine: `<cache dir>/<key>/cache.zip`, the cache dir
 * being the project's under the runner's builds folder, shared by its slots. The key is the
 * job's `cache:key` with the build's variables expanded, or `<job name>/<ref>` (1.x's default).
 * It is restored before the dependencies' artifacts and the script, and saved after a successful
 * script and its after_script, before the artifacts go up; `policy: pull` only restores, `push`
 * only saves. Neither way fails the build: a cache is an optimisation, as in the runner.
 */

interface CacheFile {
  key: string;
  file: string;
}

/** The key and its archive; undefined (with a line saying why) when there is none to use. */
function cacheFile(
  payload: JobPayload,
  cache: CacheOptions,
  workspace: Workspace,
  cacheDir: string,
  trace: TraceUploader,
): CacheFile | undefined {
  const key =
    cache.key !== undefined ? expand(cache.key, workspace.variables) : path.posix.join(payload.job_info.name, payload.git_info.ref ?? '');
  if (key === '') return undefined;
  const file = path.resolve(cacheDir, key, 'cache.zip');
  // A key such as `../../x` would put the archive outside the project's cache folder.
  if (!file.startsWith(cacheDir + path.sep)) {
    trace.line(`WARNING: the cache key ${key} leaves the cache folder: the cache is not used`);
    return undefined;
  }
  return { key, file };
}

/** Unpacks the key's archive into the working copy, when the policy pulls and there is one. */
export async function restoreCache(
  payload: JobPayload,
  cache: CacheOptions,
  trace: TraceUploader,
  workspace: Workspace,
  cacheDir: string,
): Promise<void> {
  const target = cacheFile(payload, cache, workspace, cacheDir, trace);
  if (!target) return;
  if (cache.policy === 'push') {
    trace.line(`Not downloading cache ${target.key} due to policy`);
    return;
  }
  trace.line(`Checking cache for ${target.key}...`);
  if (!fs.existsSync(target.file)) {
    trace.line(`WARNING: ${target.key}/cache.zip: no such archive yet`);
    trace.line('WARNING: Failed to extract cache');
    return;
  }
  try {
    await extractZip(target.file, workspace.projectDir);
    trace.line('Successfully extracted cache');
  } catch (error) {
    trace.line(`WARNING: Failed to extract cache: ${(error as Error).message}`);
  }
}

/** Zips what `cache` names into the key's archive (replacing it at once, so a slot reading it meanwhile reads a whole one), when the policy pushes. */
export async function archiveCache(
  payload: JobPayload,
  cache: CacheOptions,
  trace: TraceUploader,
  workspace: Workspace,
  cacheDir: string,
): Promise<void> {
  const target = cacheFile(payload, cache, workspace, cacheDir, trace);
  if (!target) return;
  if (cache.policy === 'pull') {
    trace.line(`Not uploading cache ${target.key} due to policy`);
    return;
  }
  trace.line(`Creating cache ${target.key}...`);
  const untracked = cache.untracked ? await untrackedFiles(workspace) : [];
  const { entries, warnings } = matchArtifactPaths(workspace.projectDir, cache.paths, untracked);
  warnings.forEach((warning) => trace.line(warning));
  if (cache.untracked) trace.line(`untracked: found ${untracked.length} files`);
  if (entries.length === 0) {
    trace.line('WARNING: no files to cache: the cache is left as it was');
    return;
  }
  const temporary = `${target.file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    fs.mkdirSync(path.dirname(target.file), { recursive: true });
    await writeZip(workspace.projectDir, entries, temporary);
    fs.renameSync(temporary, target.file);
    trace.line('Created cache');
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    trace.line(`WARNING: Failed to create cache: ${(error as Error).message}`);
  }
}
