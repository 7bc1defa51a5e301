import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Benchmark, BenchOptions, TargetCheck } from './support/types';
import { databaseKind, startBenchApp, type BenchApp } from './support/app';
import { timedRequest } from './support/http';
import { seedPipelines } from './support/seed-ci';
import { runLoad } from './support/runner-load';
import type { LoadReport } from './support/runner-client';
import { serverCpuMs } from './support/cpu';
import { median, ms } from './support/stats';
import { createProjects } from './ci';
import { pipelineEnd, push } from './runner';
import { apiCall } from './support/http';
import { commit, git, workTree } from '../test/support/git';
import { RunnerProcess } from '../test/support/runner-process';

const HANDOUT_RUNNERS = 50;
const IDLE_RUNNERS = 1000;
const SQLITE_HANDOUT_TARGET = 500;
const POSTGRES_HANDOUT_TARGET = 300;
const IDLE_MEMORY_TARGET_MB = 50;
const IDLE_CPU_TARGET_PERCENT = 5;
const PUSH_TARGET_MS = 1000;
const MB = 1024 * 1024;

/** Shared runners registered through `POST /api/v4/runners` with the instance's registration token. */
async function registerRunners(app: BenchApp, count: number): Promise<string[]> {
  const { runners_registration_token: token } = await app.services.settings.get();
  const tokens: string[] = [];
  for (let n = 0; n < count; n++) {
    const response = await timedRequest(`${app.url}/api/v4/runners`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, description: `v4-bench-${n}`, info: { name: 'gitlab-runner', version: '16.11.0' } }),
    });
    if (response.status !== 201)
      throw new Error(`POST /api/v4/runners answered ${response.status}: ${response.body.toString().slice(0, 300)}`);
    tokens.push(JSON.parse(response.body.toString()).token);
  }
  return tokens;
}

/** The load generator's pid among this process's children (its command line names runner-client.ts), to leave its CPU out. */
function loadGeneratorPid(): number | undefined {
  try {
    const children = fs.readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    return children.find((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('runner-client'));
  } catch {
    return undefined;
  }
}

/** The server's resident memory (after a collection when `--expose-gc` allows one) and its CPU over `seconds`. */
async function footprint(seconds: number, excludePid?: number): Promise<{ rssMb: number; cpuPercent: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const rssMb = process.memoryUsage().rss / MB;
  const cpuBefore = serverCpuMs(excludePid);
  const started = performance.now();
  await sleep(seconds * 1000);
  const cpuPercent = ((serverCpuMs(excludePid) - cpuBefore) / (performance.now() - started)) * 100;
  return { rssMb, cpuPercent };
}

const perSecond = (count: number, seconds: number) => (seconds > 0 ? count / seconds : 0);

/**
 * The runner API v4 under load, each measure beside the bare server in the same run: (a) jobs
 * handed out per second to 50 runners long-polling `POST /api/v4/jobs/request` with 10,000 pending
 * (beside `/-/health` from the same loops); (b) what 1,000 idle runners held by long polling cost
 * the server (its memory and CPU beside the same server with no runner); (c) `git push` to a
 * finished one-job pipeline with `forge runner` over v4.
 */
async function run({ quick }: BenchOptions): Promise<TargetCheck[]> {
  const pipelines = quick ? 20 : 100;
  const pending = pipelines * 100;
  const idleSeconds = quick ? 5 : 15;
  const handoutTarget = databaseKind() === 'PostgreSQL' ? POSTGRES_HANDOUT_TARGET : SQLITE_HANDOUT_TARGET;
  const checks: TargetCheck[] = [];

  // (a) and (b): a server holding polls for a minute, so idle runners stay held while measured.
  const app = await startBenchApp({ RUNNER_POLL_TIMEOUT_MS: '60000' });
  try {
    const projects = await createProjects(app);
    const tokens = await registerRunners(app, HANDOUT_RUNNERS);
    await seedPipelines(app.database, app.ctx.secrets, projects, { pipelines, buildsPerPipeline: 100, status: 'pending', label: 'v4' });
    await runLoad({ mode: 'health', url: app.url, connections: HANDOUT_RUNNERS, seconds: 1 });
    const handout = await runLoad({
      mode: 'request-v4',
      url: app.url,
      runnerTokens: tokens,
      expected: pending,
      maxSeconds: quick ? 60 : 180,
    });
    const health = await runLoad({ mode: 'health', url: app.url, connections: HANDOUT_RUNNERS, requests: Math.max(handout.requests, 50) });
    const jobsPerSecond = perSecond(handout.ok, handout.seconds);
    const healthRate = perSecond(health.ok, health.seconds);
    const complete = handout.ok === pending ? '' : `, only ${handout.ok} of ${pending} handed out`;
    console.log(
      `${databaseKind()}: ${handout.ok} jobs to ${HANDOUT_RUNNERS} runners in ${handout.seconds.toFixed(1)} s (p50 ${handout.p50.toFixed(1)} ms, p99 ${handout.p99.toFixed(1)} ms); /-/health ${Math.round(healthRate)} req/s from the same loops`,
    );
    checks.push({
      bench: 'runner-v4',
      label: `jobs handed out, ${HANDOUT_RUNNERS} runners long-polling, ${pending.toLocaleString('en')} pending`,
      value: `${Math.round(jobsPerSecond)} jobs/s (/-/health ${Math.round(healthRate)} req/s)${complete}`,
      target: `≥ ${handoutTarget} jobs/s`,
      status: jobsPerSecond >= handoutTarget && complete === '' ? 'meets' : 'misses',
    });

    // (b) The queue is empty now: every poll is held.
    const idleTokens = await registerRunners(app, IDLE_RUNNERS);
    const bare = await footprint(idleSeconds);
    const idle = runLoad({ mode: 'request-v4', url: app.url, runnerTokens: idleTokens, expected: 0, maxSeconds: idleSeconds * 3 });
    // Awaited below; a failure meanwhile must not end the process unhandled.
    idle.catch(() => undefined);
    const heldBy = performance.now() + 120_000;
    while (app.ctx.buildQueue.waiting < IDLE_RUNNERS && performance.now() < heldBy) await sleep(100);
    const held = app.ctx.buildQueue.waiting;
    const busy = await footprint(idleSeconds, loadGeneratorPid());
    const idleReport: LoadReport = await idle;
    const extraMb = busy.rssMb - bare.rssMb;
    console.log(
      `idle: bare server ${bare.rssMb.toFixed(0)} MB, ${bare.cpuPercent.toFixed(1)} % of a core; ${held} runners held: ${busy.rssMb.toFixed(0)} MB, ${busy.cpuPercent.toFixed(1)} % (${idleReport.requests} requests in all)`,
    );
    checks.push({
      bench: 'runner-v4',
      label: `server memory with ${held} idle runners long-polling, beside the bare server`,
      value: `+${extraMb.toFixed(0)} MB (${bare.rssMb.toFixed(0)} → ${busy.rssMb.toFixed(0)} MB)`,
      target: `< ${IDLE_MEMORY_TARGET_MB} MB more`,
      status: extraMb < IDLE_MEMORY_TARGET_MB && held === IDLE_RUNNERS ? 'meets' : 'misses',
    });
    checks.push({
      bench: 'runner-v4',
      label: `server CPU with ${held} idle runners long-polling, beside the bare server`,
      value: `${busy.cpuPercent.toFixed(1)} % of a core (bare ${bare.cpuPercent.toFixed(1)} %)`,
      target: `< ${IDLE_CPU_TARGET_PERCENT} %`,
      status: busy.cpuPercent < IDLE_CPU_TARGET_PERCENT && held === IDLE_RUNNERS ? 'meets' : 'misses',
    });
  } finally {
    await app.close();
  }

  // (c) forge runner over v4 on the same machine.
  const samples = quick ? 3 : 10;
  const pushApp = await startBenchApp();
  const token = (await pushApp.services.settings.get()).runners_registration_token;
  const runner = RunnerProcess.start(pushApp, { registrationToken: token });
  const dir = await workTree('master', { '.gitlab-ci.yml': 'job:\n  script: echo ok\n' });
  try {
    const project = await apiCall(pushApp.url, pushApp.rootToken, 'POST', '/projects', { name: 'runner-v4-latency' });
    const latencies: number[] = [];
    for (let n = 0; n <= samples; n++) {
      if (n > 0) await commit(dir, { 'counter.txt': `${n}\n` }, `change ${n}`);
      const sha = (await git(['rev-parse', 'HEAD'], dir)).stdout.trim();
      const started = performance.now();
      await push(pushApp, dir, project);
      const status = await pipelineEnd(pushApp, project.id, sha);
      if (status !== 'success') throw new Error(`the pipeline of ${sha} ended ${status}`);
      // The first push also warms the runner up (its registration, tsx): not a sample.
      if (n > 0) latencies.push(performance.now() - started);
    }
    const latency = median(latencies);
    console.log(
      `push → pipeline success over v4, ${samples} pushes: median ${ms(latency)}, min ${ms(Math.min(...latencies))}, max ${ms(Math.max(...latencies))}`,
    );
    checks.push({
      bench: 'runner-v4',
      label: `git push → one-job pipeline success with forge runner over v4, median of ${samples}`,
      value: ms(latency),
      target: `< ${ms(PUSH_TARGET_MS)}`,
      status: latency < PUSH_TARGET_MS ? 'meets' : 'misses',
    });
  } finally {
    await runner.close();
    fs.rmSync(dir, { recursive: true, force: true });
    await pushApp.close();
  }
  return checks;
}

export const runnerV4Bench: Benchmark = {
  name: 'runner-v4',
  description: 'runner API v4: jobs handed out to long-polling runners, 1,000 idle runners held, push to pipeline over v4',
  run,
};
