import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Benchmark, BenchOptions, TargetCheck } from './support/types';
import { startBenchApp, type BenchApp } from './support/app';
import { apiCall } from './support/http';
import { median, ms } from './support/stats';
import { cloneUrl, commit, git, workTree } from '../test/support/git';
import { RunnerProcess } from '../test/support/runner-process';

const LATENCY_TARGET_MS = 2000;
const BUILDS_PER_MINUTE_CONCURRENCY = 4;

/** Pushes the work tree's head to master; resolves once git push has returned. */
export async function push(app: BenchApp, dir: string, project: { path_with_namespace: string }): Promise<void> {
  const pushed = await git(['push', '-q', cloneUrl(app.url, project.path_with_namespace, 'root', 'rootpassword'), 'master'], dir);
  if (pushed.code !== 0) throw new Error(`push failed: ${pushed.stderr}`);
}

/** Waits until the pipeline of `sha` has ended; its status. */
export async function pipelineEnd(app: BenchApp, projectId: number, sha: string): Promise<string> {
  for (;;) {
    const pipelines = await apiCall(app.url, app.rootToken, 'GET', `/projects/${projectId}/pipelines?per_page=5`);
    const pipeline = pipelines.find((p: any) => p.sha === sha);
    if (pipeline && ['success', 'failed', 'canceled'].includes(pipeline.status)) return pipeline.status;
    await sleep(10);
  }
}

/**
 * `forge runner` on the same machine as the server: (a) from `git push` to a finished one-job
 * pipeline (`echo ok`), (b) trivial builds completed per minute by one runner running 4 at once.
 */
async function run({ quick }: BenchOptions): Promise<TargetCheck[]> {
  const samples = quick ? 3 : 10;
  const builds = quick ? 12 : 40;
  const app = await startBenchApp();
  const token = (await app.services.settings.get()).runners_registration_token;
  const runner = RunnerProcess.start(app, { registrationToken: token, concurrency: BUILDS_PER_MINUTE_CONCURRENCY });
  const dirs: string[] = [];
  try {
    // (a) one job per push, pushes one after the other.
    const project = await apiCall(app.url, app.rootToken, 'POST', '/projects', { name: 'runner-latency' });
    const dir = await workTree('master', { '.gitlab-ci.yml': 'job:\n  script: echo ok\n' });
    dirs.push(dir);
    const latencies: number[] = [];
    for (let n = 0; n <= samples; n++) {
      if (n > 0) await commit(dir, { 'counter.txt': `${n}\n` }, `change ${n}`);
      const sha = (await git(['rev-parse', 'HEAD'], dir)).stdout.trim();
      const started = performance.now();
      await push(app, dir, project);
      const status = await pipelineEnd(app, project.id, sha);
      if (status !== 'success') throw new Error(`the pipeline of ${sha} ended ${status}`);
      // The first push also starts the runner's work (its registration, tsx warming up): not a sample.
      if (n > 0) latencies.push(performance.now() - started);
    }
    const latency = median(latencies);
    console.log(
      `push → pipeline success, ${samples} pushes: median ${ms(latency)}, min ${ms(Math.min(...latencies))}, max ${ms(Math.max(...latencies))}`,
    );

    // (b) many trivial jobs in one pipeline.
    const many = await apiCall(app.url, app.rootToken, 'POST', '/projects', { name: 'runner-throughput' });
    const yaml = Array.from({ length: builds }, (_, n) => `job${n}:\n  script: echo ok\n`).join('');
    const manyDir = await workTree('master', { '.gitlab-ci.yml': yaml });
    dirs.push(manyDir);
    const sha = (await git(['rev-parse', 'HEAD'], manyDir)).stdout.trim();
    const started = performance.now();
    await push(app, manyDir, many);
    const status = await pipelineEnd(app, many.id, sha);
    if (status !== 'success') throw new Error(`the pipeline of ${builds} builds ended ${status}`);
    const perMinute = builds / ((performance.now() - started) / 60_000);
    console.log(`${builds} builds, --concurrency ${BUILDS_PER_MINUTE_CONCURRENCY}: ${perMinute.toFixed(0)} builds/min`);

    return [
      {
        bench: 'runner',
        label: `git push → one-job pipeline success, median of ${samples}`,
        value: ms(latency),
        target: `< ${ms(LATENCY_TARGET_MS)}`,
        status: latency < LATENCY_TARGET_MS ? 'meets' : 'misses',
      },
      {
        bench: 'runner',
        label: `trivial builds by one runner, --concurrency ${BUILDS_PER_MINUTE_CONCURRENCY}`,
        value: `${perMinute.toFixed(0)} builds/min`,
        target: '(measured)',
        status: 'meets',
      },
    ];
  } finally {
    await runner.close();
    dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
    await app.close();
  }
}

export const runnerBench: Benchmark = {
  name: 'runner',
  description: 'forge runner on one machine: git push to a finished pipeline, and trivial builds per minute',
  run,
};
