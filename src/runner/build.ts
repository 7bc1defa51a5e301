import fs from 'node:fs';
import path from 'node:path';
import type { RunnerApi } from './api';
import { FORGE_RUNNER_VERSION } from './api';
import { restoreDependencies, uploadArtifacts, type Workspace } from './build-artifacts';
import type { JobPayload } from './payload';
import { artifactsOf, cacheOf, containerOptionsOf, stepOf, timeoutMsOf } from './payload';
import { archiveCache, restoreCache } from './cache';
import { runProcess, type RunResult } from './process';
import { shellScript } from './shell-script';
import { TraceUploader, type FinalState } from './trace';
import { buildVariables } from './variables';

/*
 * One job, from the payload to the final update, as gitlab-runner's shell executor runs it: a fresh
 * working copy fetched with the job's token (its `refspecs`) and checked out at its sha, the cache,
 * the dependencies' artifacts, the `script` step, the `after_script` step (always, its failure
 * ignored), the cache saved (after a success), this job's artifacts, then the rest of the trace and
 * the final state with `failure_reason` and `exit_code`. A cancel seen on the trace channel, the
 * job's timeout or a forced shutdown kills the process group at once and fails the job.
 */

export interface BuildContext {
  api: RunnerApi;
  /** The runner's own token: its first 8 characters name its builds folder. */
  runnerToken: string;
  /** Absolute. */
  buildsDir: string;
  /** Which of the runner's concurrent slots runs the build: part of its folder, so slots never share one. */
  slot: number;
  /** Aborts when the runner is told to stop at once. */
  shutdown: AbortSignal;
}

export type BuildOutcome = 'success' | 'failed' | 'canceled' | 'timed out' | 'stopped';

type Abort = { outcome: 'canceled' | 'timed out' | 'stopped'; message: string; reason: string };

// after_script has five minutes, as in the runner.
const AFTER_SCRIPT_TIMEOUT_MS = 5 * 60_000;

export async function runBuild(payload: JobPayload, context: BuildContext): Promise<{ outcome: BuildOutcome; detail?: string }> {
  const controller = new AbortController();
  const abort = (reason: Abort) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  const trace = new TraceUploader(context.api, payload, (message) => abort({ outcome: 'canceled', message, reason: 'unknown_failure' }));
  const timeoutMs = timeoutMsOf(payload);
  const timer = setTimeout(
    () =>
      abort({ outcome: 'timed out', message: `execution took longer than ${timeoutMs / 1000} seconds`, reason: 'job_execution_timeout' }),
    timeoutMs,
  );
  const onShutdown = () => abort({ outcome: 'stopped', message: 'the runner was stopped', reason: 'runner_system_failure' });
  context.shutdown.addEventListener('abort', onShutdown, { once: true });
  if (context.shutdown.aborted) onShutdown();
  trace.start();

  const { projectDir, tmpDir, cacheDir } = buildFolders(payload, context);
  const cache = cacheOf(payload);
  const variables = buildVariables(payload, { buildsDir: context.buildsDir, projectDir });
  // The runner is a git client working for the build's owner, not Forge's server git
  // (`src/git/environment.ts`): its git keeps the machine's and the runner account's configuration,
  // as gitlab-runner's shell executor does. A build may need it (git-lfs' smudge filter fetching
  // LFS files, a proxy, a private CA), and the working copy is the build's own, never served to anyone.
  const env: NodeJS.ProcessEnv = { ...process.env, ...Object.fromEntries(variables), GIT_TERMINAL_PROMPT: '0' };
  const workspace: Workspace = { projectDir, tmpDir, env, variables, signal: controller.signal };

  let failure: string | undefined;
  let scriptFailed = false;
  let exitCode: number | undefined;
  let failureReason = 'runner_system_failure';
  try {
    trace.line(`Running with forge runner ${FORGE_RUNNER_VERSION} (runner API v4)`);
    trace.line(`Using Shell executor on ${process.platform}/${process.arch}...`);
    const containers = containerOptionsOf(payload);
    if (containers.image || containers.services.length > 0) {
      const what = [
        containers.image && `image ${containers.image}`,
        containers.services.length > 0 && `services ${containers.services.join(', ')}`,
      ]
        .filter(Boolean)
        .join(' and ');
      trace.line(`WARNING: the shell executor ignores ${what}: the build runs on this machine`);
    }
    fs.rmSync(projectDir, { recursive: true, force: true });
    fs.rmSync(tmpDir, { recursive: true, force: true });
    fs.mkdirSync(projectDir, { recursive: true });
    fs.mkdirSync(tmpDir, { recursive: true });

    failure = await checkout(payload, trace, workspace);
    if (!failure && cache && !controller.signal.aborted) await restoreCache(payload, cache, trace, workspace, cacheDir);
    if (!failure && !controller.signal.aborted) failure = await restoreDependencies(context.api, payload, trace, workspace);
    if (!failure && !controller.signal.aborted) {
      const result = await runScript('script', stepOf(payload, 'script'), trace, workspace, controller.signal);
      if (result !== 'aborted' && result.code !== 0) {
        failure = exitFailure(result);
        scriptFailed = true;
        failureReason = 'script_failure';
        exitCode = result.code ?? undefined;
      }
      if (result !== 'aborted') await runAfterScript(payload, trace, workspace, controller.signal);
      if (!failure && cache && !controller.signal.aborted) await archiveCache(payload, cache, trace, workspace, cacheDir);
    }
    const artifacts = artifactsOf(payload);
    const wanted = artifacts && (failure ? scriptFailed && artifacts.when !== 'on_success' : artifacts.when !== 'on_failure');
    if (artifacts && wanted && !controller.signal.aborted) {
      const uploadFailure = await uploadArtifacts(context.api, payload, artifacts, trace, workspace);
      failure ??= uploadFailure;
    }
  } catch (error) {
    failure = `the runner failed: ${(error as Error).message}`;
  } finally {
    clearTimeout(timer);
    context.shutdown.removeEventListener('abort', onShutdown);
    fs.rmSync(projectDir, { recursive: true, force: true });
    fs.rmSync(tmpDir, { recursive: true, force: true });
  }

  const aborted = controller.signal.aborted ? (controller.signal.reason as Abort) : undefined;
  if (aborted) {
    failure = aborted.message;
    failureReason = aborted.reason;
  }
  trace.line(failure ? `ERROR: Build failed: ${failure}` : 'Build succeeded');
  const final: FinalState = failure ? { state: 'failed', failureReason, exitCode } : { state: 'success' };
  await trace.finish(final);
  return failure ? { outcome: aborted?.outcome ?? 'failed', detail: failure } : { outcome: 'success' };
}

/**
 * `<builds dir>/<runner short token>/<slot>/<namespace>/<project>` from the repo URL's path, as the
 * shell executor lays them out, and the project's cache folder beside the slots,
 * `<builds dir>/<runner short token>/cache/<namespace>/<project>`, which every slot shares.
 */
function buildFolders(payload: JobPayload, context: BuildContext): { projectDir: string; tmpDir: string; cacheDir: string } {
  let project = `project-${payload.job_info.project_id}`;
  try {
    const repoPath = decodeURIComponent(new URL(payload.git_info.repo_url).pathname)
      .replace(/\.git$/, '')
      .replace(/^\/+/, '');
    const safe = repoPath.split('/').filter((part) => part !== '' && part !== '.' && part !== '..');
    if (safe.length > 0) project = safe.join('/');
  } catch {
    // an unparsable URL: the project's id names the folder
  }
  // gitlab-runner's short token: the first 8 characters after the `glrt-` prefix.
  const runnerDir = path.join(context.buildsDir, context.runnerToken.replace(/^glrt-/, '').slice(0, 8));
  const projectDir = path.join(runnerDir, String(context.slot), project);
  return { projectDir, tmpDir: `${projectDir}.tmp`, cacheDir: path.join(runnerDir, 'cache', project) };
}

/**
 * A fresh repository fetched over HTTP with the job's credentials (the `refspecs` the server names,
 * all branches and tags when it names none; `depth` when set), checked out detached at the job's sha.
 */
async function checkout(payload: JobPayload, trace: TraceUploader, workspace: Workspace): Promise<string | undefined> {
  const { repo_url: repoUrl, sha, ref } = payload.git_info;
  const refspecs = payload.git_info.refspecs?.length
    ? payload.git_info.refspecs
    : ['+refs/heads/*:refs/remotes/origin/*', '+refs/tags/*:refs/tags/*'];
  const depth = payload.git_info.depth && payload.git_info.depth > 0 ? [`--depth=${payload.git_info.depth}`] : [];
  trace.line(`Fetching changes...`);
  const git = async (...args: string[]) => {
    const result = await runProcess('git', ['-c', 'credential.helper=', ...args], {
      cwd: workspace.projectDir,
      env: workspace.env,
      signal: workspace.signal,
      output: (chunk) => trace.write(chunk),
    });
    return result === 'aborted' || result.code === 0 ? undefined : `git ${args[0]} failed (${exitFailure(result)})`;
  };
  const steps: string[][] = [
    ['init', '-q'],
    ['remote', 'add', 'origin', repoUrl],
    ['fetch', '-q', ...depth, 'origin', '--prune', ...refspecs],
  ];
  for (const step of steps) {
    const failure = await git(...step);
    if (failure) return failure;
  }
  trace.line(`Checking out ${sha.slice(0, 8)} as ${ref ?? sha}...`);
  return git('-c', 'advice.detachedHead=false', 'checkout', '-f', '-q', sha);
}

function runScript(name: string, lines: string[], trace: TraceUploader, workspace: Workspace, signal: AbortSignal): Promise<RunResult> {
  const file = path.join(workspace.tmpDir, `${name}.sh`);
  fs.writeFileSync(file, shellScript(lines, workspace.projectDir), { mode: 0o700 });
  return runProcess('bash', ['--noprofile', '--norc', file], {
    cwd: workspace.projectDir,
    env: workspace.env,
    signal,
    output: (chunk) => trace.write(chunk),
  });
}

/** after_script, after the commands whatever their result; its own failure fails nothing. */
async function runAfterScript(payload: JobPayload, trace: TraceUploader, workspace: Workspace, signal: AbortSignal): Promise<void> {
  const lines = stepOf(payload, 'after_script');
  if (lines.length === 0) return;
  trace.line('Running after script...');
  const capped = AbortSignal.any([signal, AbortSignal.timeout(AFTER_SCRIPT_TIMEOUT_MS)]);
  const result = await runScript('after_script', lines, trace, workspace, capped);
  if (result === 'aborted' && !signal.aborted)
    trace.line(`WARNING: after_script took longer than ${AFTER_SCRIPT_TIMEOUT_MS / 1000} seconds`);
  else if (result !== 'aborted' && result.code !== 0) trace.line(`WARNING: after_script failed: ${exitFailure(result)}`);
}

const exitFailure = (result: Exclude<RunResult, 'aborted'>) => (result.signal ? `killed by ${result.signal}` : `exit code ${result.code}`);
