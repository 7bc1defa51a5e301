import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunnerApi } from './api';
import { retrying } from './api';
import { extractZip, writeZip } from './archive';
import { matchArtifactPaths } from './artifact-paths';
import type { ArtifactsOptions, JobPayload } from './payload';
import { dependenciesOf } from './payload';
import { runProcess } from './process';
import type { TraceUploader } from './trace';
import { expand } from './variables';

/*
 * A job's artifacts, both ways, with gitlab-runner's answers to each status: the dependencies'
 * archives downloaded with each dependency's own token and unpacked into the working copy, and this
 * job's archive zipped and uploaded with its token.
 */

export interface Workspace {
  projectDir: string;
  tmpDir: string;
  env: NodeJS.ProcessEnv;
  variables: Map<string, string>;
  signal: AbortSignal;
}

/** Downloads and unpacks the artifacts of the earlier builds this one depends on; an error message, or undefined. */
export async function restoreDependencies(
  api: RunnerApi,
  payload: JobPayload,
  trace: TraceUploader,
  workspace: Workspace,
): Promise<string | undefined> {
  for (const dependency of dependenciesOf(payload)) {
    if (workspace.signal.aborted) return undefined;
    trace.line(`Downloading artifacts for ${dependency.name} (${dependency.id})...`);
    const file = path.join(workspace.tmpDir, `dependency-${dependency.id}.zip`);
    let status = -1;
    for (let attempt = 1; attempt <= 3; attempt++) {
      status = await api.downloadArtifacts(dependency, file);
      if (status === 200 || status === 403 || status === 404) break;
      await sleep(1000);
    }
    if (status !== 200) return `downloading the artifacts of ${dependency.name} (${dependency.id}) failed: ${describe(status)}`;
    try {
      const count = await extractZip(file, workspace.projectDir);
      trace.line(`Downloading artifacts from coordinator... ok        id=${dependency.id} files=${count}`);
    } catch (error) {
      return `the artifacts of ${dependency.name} (${dependency.id}) could not be unpacked: ${(error as Error).message}`;
    } finally {
      fs.rmSync(file, { force: true });
    }
  }
  return undefined;
}

/** Zips what `artifacts` names and uploads it; an error message, or undefined (also when there was nothing to upload). */
export async function uploadArtifacts(
  api: RunnerApi,
  payload: JobPayload,
  artifacts: ArtifactsOptions,
  trace: TraceUploader,
  workspace: Workspace,
): Promise<string | undefined> {
  trace.line('Uploading artifacts...');
  const untracked = artifacts.untracked ? await untrackedFiles(workspace) : [];
  const { entries, warnings } = matchArtifactPaths(workspace.projectDir, artifacts.paths, untracked);
  warnings.forEach((warning) => trace.line(warning));
  if (artifacts.untracked) trace.line(`untracked: found ${untracked.length} files`);
  if (entries.length === 0) {
    trace.line('WARNING: no files to upload');
    return undefined;
  }
  const zip = path.join(workspace.tmpDir, 'artifacts.zip');
  await writeZip(workspace.projectDir, entries, zip);
  // The archive is named after `artifacts:name` with the build's variables expanded, without folders.
  const name = path.posix.basename(expand(artifacts.name, workspace.variables)) || 'artifacts';
  const answer = await retrying(
    () => api.uploadArtifacts(payload, zip, { name, expireIn: artifacts.expireIn }),
    (a) => a.status === 201 || a.status === 403 || a.status === 413,
    1000,
    3,
    workspace.signal,
  );
  fs.rmSync(zip, { force: true });
  if (answer.status === 201) {
    trace.line(`Uploading artifacts to coordinator... ok        id=${payload.id} responseStatus=201 Created`);
    return undefined;
  }
  if (answer.status === 413) return 'uploading artifacts failed: too large';
  return `uploading artifacts failed: ${describe(answer.status)}${typeof answer.body?.message === 'string' ? ` (${answer.body.message})` : ''}`;
}

/** Files git does not track, ignored ones included, as the runner's archiver lists them (`git ls-files -o`). */
export async function untrackedFiles(workspace: Workspace): Promise<string[]> {
  let output = '';
  const result = await runProcess('git', ['ls-files', '-o', '-z'], {
    cwd: workspace.projectDir,
    env: workspace.env,
    signal: workspace.signal,
    output: (chunk) => (output += chunk.toString('utf8')),
  });
  if (result === 'aborted' || result.code !== 0) return [];
  return output.split('\0').filter((name) => name !== '');
}

const describe = (status: number) => (status === -1 ? 'the server could not be reached' : `the server answered ${status}`);
