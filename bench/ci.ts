import { performance } from 'node:perf_hooks';
import type { Benchmark, BenchOptions, TargetCheck } from './support/types';
import { databaseKind, startBenchApp, type BenchApp } from './support/app';
import { apiCall, timedRequest } from './support/http';
import { seedPipelines, type CiProject } from './support/seed-ci';
import { runLoad } from './support/runner-load';
import type { LoadReport } from './support/runner-client';
import { table } from './support/stats';

const PROJECTS = 10;
const RUNNERS = 50;
const HANDOUT_TARGET = 500;
const TRACE_BUILDS = 100;
const PART_BYTES = 4096;
const TRACE_TARGET_MB = 10;
const MB = 1_000_000;

/**
 * Projects of root's through the API, each with one commit: the commit their pipelines build. It
 * holds no .gitlab-ci.yml, so that the push makes no pipeline of its own and the seeded builds are
 * all there is.
 */
export async function createProjects(app: BenchApp): Promise<CiProject[]> {
  const projects: CiProject[] = [];
  for (let n = 0; n < PROJECTS; n++) {
    const project = await apiCall(app.url, app.rootToken, 'POST', '/projects', { name: `ci-bench-${n}` });
    await apiCall(app.url, app.rootToken, 'POST', `/projects/${project.id}/repository/files`, {
      file_path: 'README.md',
      branch_name: 'master',
      content: '# ci bench\n',
      commit_message: 'Add a readme',
    });
    const branch = await apiCall(app.url, app.rootToken, 'GET', `/projects/${project.id}/repository/branches/master`);
    projects.push({ id: project.id, sha: branch.commit.id });
  }
  return projects;
}

/** Shared runners registered through the runner API with the instance's registration token; undefined when the route is not there. */
async function registerRunners(app: BenchApp): Promise<Array<{ id: number; token: string }> | undefined> {
  const { runners_registration_token: token } = await app.services.settings.get();
  const runners: Array<{ id: number; token: string }> = [];
  for (let n = 0; n < RUNNERS; n++) {
    const response = await timedRequest(`${app.url}/ci/api/v1/runners/register.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, description: `bench-runner-${n}`, info: { name: 'gitlab-ci-multi-runner', version: '1.6.0' } }),
    });
    if (response.status === 404) return undefined;
    if (response.status !== 201)
      throw new Error(`runner registration answered ${response.status}: ${response.body.toString().slice(0, 300)}`);
    runners.push(JSON.parse(response.body.toString()));
  }
  return runners;
}

const perSecond = (count: number, seconds: number) => (seconds > 0 ? count / seconds : 0);
const latency = (report: LoadReport) => [`${report.p50.toFixed(1)} ms`, `${report.p99.toFixed(1)} ms`];
const others = (report: LoadReport) =>
  Object.entries(report.other)
    .map(([status, count]) => `${count}×${status}`)
    .join(' ') || '-';

/**
 * Runners polling for builds (50 of them, 10,000 pending builds) and running builds appending to
 * their traces (100 of them, 4 KB parts), each beside as many clients asking Forge's `/-/health`.
 */
async function run({ quick }: BenchOptions): Promise<TargetCheck[]> {
  const pipelines = quick ? 20 : 100;
  const buildsPerPipeline = 100;
  const pending = pipelines * buildsPerPipeline;
  const traceSeconds = quick ? 3 : 10;
  const handoutLabel = `builds handed out, ${RUNNERS} runners polling, ${pending.toLocaleString('en')} pending`;
  const traceLabel = `trace appends, ${TRACE_BUILDS} running builds sending ${PART_BYTES / 1024} KB parts`;
  const app = await startBenchApp();
  try {
    const projects = await createProjects(app);
    const runners = await registerRunners(app);
    if (!runners) {
      console.log('POST /ci/api/v1/runners/register answers 404: the runner API is not there yet');
      return [
        { bench: 'ci', label: handoutLabel, value: 'route answers 404', target: `≥ ${HANDOUT_TARGET} builds/s`, status: 'not available' },
        { bench: 'ci', label: traceLabel, value: 'route answers 404', target: `≥ ${TRACE_TARGET_MB} MB/s`, status: 'not available' },
      ];
    }
    const seedStarted = performance.now();
    const { secrets } = app.ctx;
    await seedPipelines(app.database, secrets, projects, { pipelines, buildsPerPipeline, status: 'pending', label: 'rspec' });
    const traceBuilds = await seedPipelines(app.database, secrets, projects, {
      pipelines: TRACE_BUILDS / 10,
      buildsPerPipeline: 10,
      status: 'running',
      runnerId: runners[0].id,
      label: 'trace',
    });
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const pendingRows = await app.database.db
      .selectFrom('ci_builds')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    if (Number(pendingRows.n) !== pending) throw new Error(`${pendingRows.n} pending builds, ${pending} seeded`);
    // The server's and the client's code paths warm up before anything is measured.
    await runLoad({ mode: 'health', url: app.url, connections: RUNNERS, seconds: 1 });

    const handout = await runLoad({
      mode: 'register',
      url: app.url,
      runnerTokens: runners.map((runner) => runner.token),
      expected: pending,
      maxSeconds: quick ? 60 : 180,
    });
    const handoutHealth = await runLoad({
      mode: 'health',
      url: app.url,
      connections: RUNNERS,
      requests: Math.max(handout.requests, RUNNERS),
    });
    const traced = await runLoad({ mode: 'trace', url: app.url, builds: traceBuilds, partBytes: PART_BYTES, seconds: traceSeconds });
    const traceHealth = await runLoad({ mode: 'health', url: app.url, connections: TRACE_BUILDS, seconds: traceSeconds });

    const buildsPerSecond = perSecond(handout.ok, handout.seconds);
    const traceMB = perSecond(traced.bytes, traced.seconds) / MB;
    console.log(
      `${databaseKind()}; ${PROJECTS} projects, ${pipelines} pipelines × ${buildsPerPipeline} pending builds seeded in ${seedSeconds.toFixed(1)} s; ` +
        `load from a child process over kept-alive connections, one loop per runner or build, each sending its next request when answered`,
    );
    console.log(
      table(
        ['load', 'clients', 'requests', 'useful', 'other', 'req/s', 'useful/s', 'p50', 'p99'],
        [
          [
            'POST /ci/api/v1/builds/register.json',
            RUNNERS,
            handout,
            `${handout.ok} builds, ${handout.empty}×204`,
            `${Math.round(buildsPerSecond)} builds/s`,
          ],
          [
            'GET /-/health (same loops, same count)',
            RUNNERS,
            handoutHealth,
            String(handoutHealth.ok),
            `${Math.round(perSecond(handoutHealth.ok, handoutHealth.seconds))} req/s`,
          ],
          [
            'PATCH /ci/api/v1/builds/:id/trace.txt',
            TRACE_BUILDS,
            traced,
            `${(traced.bytes / MB).toFixed(1)} MB`,
            `${traceMB.toFixed(1)} MB/s`,
          ],
          [
            'GET /-/health (same loops, same time)',
            TRACE_BUILDS,
            traceHealth,
            String(traceHealth.ok),
            `${Math.round(perSecond(traceHealth.ok, traceHealth.seconds))} req/s`,
          ],
        ].map(([name, clients, report, useful, rate]) => {
          const r = report as LoadReport;
          return [
            name as string,
            String(clients),
            String(r.requests),
            useful as string,
            others(r),
            `${Math.round(perSecond(r.requests, r.seconds))} req/s`,
            rate as string,
            ...latency(r),
          ];
        }),
      ),
    );

    const healthBeside = (report: LoadReport) => `/-/health ${Math.round(perSecond(report.ok, report.seconds))} req/s`;
    const checks: TargetCheck[] = [];
    if (handout.ok === 0 && handout.firstOther?.status === 404) {
      checks.push({
        bench: 'ci',
        label: handoutLabel,
        value: 'route answers 404',
        target: `≥ ${HANDOUT_TARGET} builds/s`,
        status: 'not available',
      });
    } else {
      const complete = handout.ok === pending ? '' : `, only ${handout.ok} of ${pending} handed out (${others(handout)})`;
      checks.push({
        bench: 'ci',
        label: `${handoutLabel} (p99 ${handout.p99.toFixed(1)} ms)`,
        value: `${Math.round(buildsPerSecond)} builds/s (${healthBeside(handoutHealth)})${complete}`,
        target: `≥ ${HANDOUT_TARGET} builds/s`,
        status: buildsPerSecond >= HANDOUT_TARGET && complete === '' ? 'meets' : 'misses',
      });
    }
    if (traced.ok === 0 && traced.firstOther?.status === 404) {
      checks.push({
        bench: 'ci',
        label: traceLabel,
        value: 'route answers 404',
        target: `≥ ${TRACE_TARGET_MB} MB/s`,
        status: 'not available',
      });
    } else {
      const broken = Object.keys(traced.other).length > 0 ? `, stopped by ${others(traced)}: ${traced.firstOther?.body}` : '';
      checks.push({
        bench: 'ci',
        label: `${traceLabel} (p99 ${traced.p99.toFixed(1)} ms)`,
        value: `${traceMB.toFixed(1)} MB/s = ${Math.round(perSecond(traced.ok, traced.seconds))} parts/s (${healthBeside(traceHealth)})${broken}`,
        target: `≥ ${TRACE_TARGET_MB} MB/s`,
        status: traceMB >= TRACE_TARGET_MB && broken === '' ? 'meets' : 'misses',
      });
    }
    return checks;
  } finally {
    await app.close();
  }
}

export const ciBench: Benchmark = {
  name: 'ci',
  description: 'runner API: builds handed out per second and trace append throughput, beside /-/health',
  run,
};
