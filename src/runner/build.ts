import fs from 'node:fs';
import path from 'node:path';
import type { RunnerApi } from './api';
import { FORGE_RUNNER_VERSION } from './api';
import { restoreDependencies, uploadArtifacts, type Workspace } from './build-artifacts';
import type { BuildPayload } from './payload';
import { afterScriptOf, artifactsOf, cacheOf, containerOptionsOf, timeoutMsOf } from './payload';
import { archiveCache, restoreCache } from './cache';
import { runProcess, type RunResult } from './process';
import { shellScript } from './shell-script';
import { TraceUploader } from './trace';
import { buildVariables } from './variables';

/*
 * One build, from the payload to the final update, as runner 1.6's shell executor runs it
 * (reference §8.5): a fresh working copy fetched with the build's token and checked out at its sha,
 * the cache, the dependencies' artifacts, the commands, after_script (always, its failure
 * ignored), the cache saved (after a success), this build's artifacts, then the final state with
 * the whole trace. A cancel seen on the trace channel,
 * the build's timeout or a forced shutdown kills the process group at once and fails the build.
 */

export interface BuildContext {
  api: RunnerApi;
  runnerToken: string;
  /** Absolute. */
  buildsDir: string;
  /** Which of the runner's concurrent slots runs the build: part of its folder, so slots never share one. */
  slot: number;
  /** Aborts when the runner is told to stop at once. */
  shutdown: AbortSignal;
}

export type BuildOutcome = 'success' | 'failed' | 'canceled' | 'timed out' | 'stopped';

type Abort = { outcome: 'canceled' | 'timed out' | 'stopped'; message: string };

// after_script has five minutes, as in the runner.
const AFTER_SCRIPT_TIMEOUT_MS = 5 * 60_000;

export async function runBuild(payload: BuildPayload, context: BuildContext): Promise<{ outcome: BuildOutcome; detail?: string }> {
  const controller = new AbortController();
  const abort = (reason: Abort) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  const trace = new TraceUploader(context.api, context.runnerToken, payload, (message) => abort({ outcome: 'canceled', message }));
  const timeoutMs = timeoutMsOf(payload);
  const timer = setTimeout(
    () => abort({ outcome: 'timed out', message: `execution took longer than ${timeoutMs / 1000} seconds` }),
    timeoutMs,
  );
  const onShutdown = () => abort({ outcome: 'stopped', message: 'the runner was stopped' });
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
  try {
    trace.line(`Running with forge runner ${FORGE_RUNNER_VERSION} (gitlab-ci-multi-runner 1.6.0 protocol)`);
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
      const result = await runScript('script', payload.commands.split('\n'), trace, workspace, controller.signal);
      if (result !== 'aborted' && result.code !== 0) {
        failure = exitFailure(result);
        scriptFailed = true;
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
  if (aborted) failure = aborted.message;
  trace.line(failure ? `ERROR: Build failed: ${failure}` : 'Build succeeded');
  await trace.finish(failure ? 'failed' : 'success');
  return failure ? { outcome: aborted?.outcome ?? 'failed', detail: failure } : { outcome: 'success' };
}

/**
 * `<builds dir>/<runner short token>/<slot>/<namespace>/<project>` from the repo URL's path, as the
 * shell executor lays them out, and the project's cache folder beside the slots,
 * `<builds dir>/<runner short token>/cache/<namespace>/<project>`, which every slot shares.
 */
function buildFolders(payload: BuildPayload, context: BuildContext): { projectDir: string; tmpDir: string; cacheDir: string } {
  let project = `project-${payload.project_id}`;
  try {
    const repoPath = decodeURIComponent(new URL(payload.repo_url).pathname)
      .replace(/\.git$/, '')
      .replace(/^\/+/, '');
    const safe = repoPath.split('/').filter((part) => part !== '' && part !== '.' && part !== '..');
    if (safe.length > 0) project = safe.join('/');
  } catch {
    // an unparsable URL: the project's id names the folder
  }
  const runnerDir = path.join(context.buildsDir, context.runnerToken.slice(0, 8));
  const projectDir = path.join(runnerDir, String(context.slot), project);
  return { projectDir, tmpDir: `${projectDir}.tmp`, cacheDir: path.join(runnerDir, 'cache', project) };
}

/** A fresh repository fetched over HTTP with the build's credentials, checked out detached at the build's sha (§8.9). */
async function checkout(payload: BuildPayload, trace: TraceUploader, workspace: Workspace): Promise<string | undefined> {
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
    ['remote', 'add', 'origin', payload.repo_url],
    ['fetch', '-q', 'origin', '--prune', '+refs/heads/*:refs/remotes/origin/*', '+refs/tags/*:refs/tags/*'],
  ];
  for (const step of steps) {
    const failure = await git(...step);
    if (failure) return failure;
  }
  trace.line(`Checking out ${payload.sha.slice(0, 8)} as ${payload.ref ?? payload.sha}...`);
  return git('-c', 'advice.detachedHead=false', 'checkout', '-f', '-q', payload.sha);
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
async function runAfterScript(payload: BuildPayload, trace: TraceUploader, workspace: Workspace, signal: AbortSignal): Promise<void> {
  const lines = afterScriptOf(payload);
  if (lines.length === 0) return;
  trace.line('Running after script...');
  const capped = AbortSignal.any([signal, AbortSignal.timeout(AFTER_SCRIPT_TIMEOUT_MS)]);
  const result = await runScript('after_script', lines, trace, workspace, capped);
  if (result === 'aborted' && !signal.aborted)
    trace.line(`WARNING: after_script took longer than ${AFTER_SCRIPT_TIMEOUT_MS / 1000} seconds`);
  else if (result !== 'aborted' && result.code !== 0) trace.line(`WARNING: after_script failed: ${exitFailure(result)}`);
}

const exitFailure = (result: Exclude<RunResult, 'aborted'>) => (result.signal ? `killed by ${result.signal}` : `exit code ${result.code}`);
