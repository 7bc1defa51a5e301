import fs from 'node:fs';
import os from 'node:os';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { Benchmark, BenchOptions, TargetCheck } from './support/types';
import { databaseKind, startBenchApp, type BenchApp } from './support/app';
import { buildFixture } from './support/git-fixture';
import { git } from './support/spawn';
import { seedCollaboration } from './support/seed-collaboration';
import { seedPipelines } from './support/seed-ci';
import { gptPasses, runOpenLoad, type LoadSummary, type OpenLoadTarget } from './support/open-load';
import { ms, ratio, table } from './support/stats';
import { apiCall, timedRequest } from './support/http';
import { repoPathOf } from '../src/services/repository/repositories';
import { refsMoved } from '../src/services/repository/refs-version';
import { cpuSince, machineCpuMs, otherProcessCpuMs, postgresCpu, serverCpuMs } from './support/cpu';
import { profiled } from './support/profile';
import { CostClient } from './support/cost-client';

/** GPT's rate: 20 requests per second per 1,000 users; 100/s is its 5k-user reference. */
const SCENARIO_RATE = 100;
const MIX_RATE = 1_000;
/** GPT's default p90 threshold, and the issue's own target for single scenarios. */
const GPT_THRESHOLD_MS = 200;
const TARGET_P90_MS = 20;
const BRANCHES = 20;
const TAGS = 20;
const COMPARE_DISTANCE = 500;

/** The two doors a scenario is sent through: GPT's own (v4) and the same read in v3's words. */
const VERSIONS = ['v4', 'v3'] as const;
type Version = (typeof VERSIONS)[number];

interface Scenario {
  /** GPT's test name. */
  name: string;
  /** The request as GPT writes it (project and group by URL-encoded path, issues and merge requests by iid). */
  v4: string;
  /** The same read on v3 (issues and merge requests by global id, a file by `file_path`). */
  v3: string;
}

/**
 * The seeded instance: 100 projects over 51 users and 25 groups with 5,000 issues and 10,000 notes
 * (`seedCollaboration`), and in the caller's first project the generated repository with branches
 * and annotated tags, and 50 pipelines.
 */
export async function seed(app: BenchApp, shape: { commits: number; files: number }) {
  const world = await seedCollaboration(app.database, app.ctx.secrets, { issues: 5_000, notes: 10_000 });
  const repoPath = repoPathOf(app.ctx, world.projectId);
  const built = path.join(app.config.dataDir, 'bench-build.git');
  const fixture = await buildFixture(built, shape);
  fs.rmSync(repoPath, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(repoPath), { recursive: true });
  fs.renameSync(built, repoPath);
  // Forge's repositories have an empty hooks directory: nothing runs inside git.
  fs.rmSync(path.join(repoPath, 'hooks'), { recursive: true, force: true });
  fs.mkdirSync(path.join(repoPath, 'hooks'));
  for (let b = 1; b < BRANCHES; b++) await git(repoPath, 'branch', `feature-${String(b).padStart(2, '0')}`, `master~${b * 10}`);
  for (let t = 0; t < TAGS; t++) {
    await git(
      repoPath,
      '-c',
      'user.name=Release Bot',
      '-c',
      'user.email=release@example.com',
      'tag',
      '-a',
      '-m',
      `Release 1.${t}`,
      `v1.${t}`,
      `master~${(TAGS - 1 - t) * 25}`,
    );
  }
  await app.database.db.updateTable('projects').set({ default_branch: 'master' }).where('id', '=', world.projectId).execute();
  await refsMoved(app.ctx, { id: world.projectId });
  const head = await git(repoPath, 'rev-parse', 'master');
  await seedPipelines(app.database, app.ctx.secrets, [{ id: world.projectId, sha: head }], {
    pipelines: 50,
    buildsPerPipeline: 2,
    status: 'pending',
    label: 'gpt',
  });
  const compareFrom = await git(repoPath, 'rev-parse', `master~${COMPARE_DISTANCE}`);
  const mergeRequest = await seedMergeRequest(app, world.projectId, await git(repoPath, 'rev-parse', 'master~100'));
  const project = await apiCall(app.url, app.rootToken, 'GET', `/projects/${world.projectId}`);
  const group = await apiCall(app.url, app.rootToken, 'GET', `/groups/${world.groupId}`);
  // A server in service has its statistics gathered and its tables vacuumed by autovacuum; a
  // database seeded a moment ago has neither, and autovacuum would start on it in the middle of a run.
  if (app.database.dialect === 'postgres') await sql`vacuum analyze`.execute(app.database.db);
  return {
    world,
    fixture,
    head,
    compareFrom,
    repoPath,
    mergeRequest,
    projectPath: encodeURIComponent(project.path_with_namespace),
    groupPath: encodeURIComponent(group.path),
  };
}

/**
 * A merge request through the API, as a user makes one: a branch from an older commit, a commit on
 * it by the files API, the request into master, and a few notes. Answers its id and iid.
 */
async function seedMergeRequest(app: BenchApp, projectId: number, startSha: string): Promise<{ id: number; iid: number }> {
  const call = (method: string, route: string, body?: unknown) =>
    apiCall(app.url, app.rootToken, method, `/projects/${projectId}${route}`, body);
  await call('POST', '/repository/branches', { branch_name: 'review', ref: startSha });
  await call('POST', '/repository/files', {
    file_path: 'REVIEW.md',
    branch_name: 'review',
    content: 'Under review\n',
    commit_message: 'Add REVIEW.md',
  });
  const mergeRequest = await call('POST', '/merge_requests', {
    source_branch: 'review',
    target_branch: 'master',
    title: 'Review the review notes',
    description: 'See REVIEW.md',
  });
  for (let n = 0; n < 10; n++) await call('POST', `/merge_requests/${mergeRequest.id}/notes`, { body: `Note ${n + 1} on the change` });
  return { id: mergeRequest.id, iid: mergeRequest.iid };
}

function scenarios(seeded: Awaited<ReturnType<typeof seed>>): Scenario[] {
  const { world, fixture, head, compareFrom, mergeRequest, projectPath, groupPath } = seeded;
  const project = `/projects/${projectPath}`;
  const repo = `${project}/repository`;
  const same = (name: string, path: string): Scenario => ({ name, v4: path, v3: path });
  const byIid = (name: string, v4: string, v3: string): Scenario => ({ name, v4: `${project}${v4}`, v3: `${project}${v3}` });
  const issue = { v4: `/issues/${world.busyIssueIid}`, v3: `/issues/${world.busyIssueId}` };
  const mr = { v4: `/merge_requests/${mergeRequest.iid}`, v3: `/merge_requests/${mergeRequest.id}` };
  return [
    same('api_v4_projects_project', project),
    same('api_v4_projects', '/projects'),
    same('api_v4_groups_group', `/groups/${groupPath}`),
    same('api_v4_groups_projects', `/groups/${groupPath}/projects`),
    same('api_v4_users', '/users'),
    same('api_v4_user', '/user'),
    same('api_v4_projects_repository_branches', `${repo}/branches`),
    same('api_v4_projects_repository_branches_branch', `${repo}/branches/master`),
    same('api_v4_projects_repository_tags', `${repo}/tags`),
    same('api_v4_projects_repository_commits', `${repo}/commits`),
    same('api_v4_projects_repository_commits_commit', `${repo}/commits/${fixture.middleSha}`),
    same('api_v4_projects_repository_commits_commit_diff', `${repo}/commits/${fixture.middleSha}/diff`),
    same('api_v4_projects_repository_compare_commits', `${repo}/compare?from=${compareFrom}&to=${head}`),
    byIid(
      'api_v4_projects_repository_files_file',
      '/repository/files/README.md?ref=master',
      '/repository/files?file_path=README.md&ref=master',
    ),
    same('api_v4_projects_repository_tree', `${repo}/tree`),
    same('api_v4_projects_issues', `${project}/issues`),
    byIid('api_v4_projects_issues_issue', issue.v4, issue.v3),
    byIid('api_v4_projects_issues_issue_notes', `${issue.v4}/notes`, `${issue.v3}/notes`),
    same('api_v4_projects_pipelines', `${project}/pipelines`),
    same('api_v4_projects_merge_requests', `${project}/merge_requests`),
    byIid('api_v4_projects_merge_requests_merge_request', mr.v4, mr.v3),
    byIid('api_v4_projects_merge_requests_merge_request_changes', `${mr.v4}/changes`, `${mr.v3}/changes`),
    byIid('api_v4_projects_merge_requests_merge_request_commits', `${mr.v4}/commits`, `${mr.v3}/commits`),
    byIid('api_v4_projects_merge_requests_merge_request_notes', `${mr.v4}/notes`, `${mr.v3}/notes`),
  ];
}

/** The floor: a bare `node:http` server answering 1 KB of JSON, in this process as Forge is. */
export async function startBareServer(): Promise<{ url: string; close(): Promise<void> }> {
  const items = Array.from({ length: 12 }, (_, i) => ({
    id: i + 1,
    name: `item ${i + 1}`,
    path: `group/item-${i + 1}`,
    visibility: 'internal',
  }));
  const body = Buffer.from(`${JSON.stringify({ items, padding: '' }).padEnd(1000, ' ').slice(0, 1000)}\n  `);
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * What one request costs the server: CPU of this process and of the git processes it runs, over
 * requests sent one after the other after a warm-up by a client in a process of its own (left out
 * of the count), beside the wall time.
 */
async function measureCost(client: CostClient, target: OpenLoadTarget, requests: number): Promise<Cost> {
  await client.run({ url: target.url, headers: target.headers, count: 20 });
  const databaseBefore = postgresCpu();
  const cpuBefore = serverCpuMs(client.pid);
  const clientBefore = otherProcessCpuMs(client.pid);
  const { wallMs, bytes } = await client.run({ url: target.url, headers: target.headers, count: requests });
  const cpuMs = serverCpuMs(client.pid) - cpuBefore;
  return {
    cpuMs: cpuMs / requests,
    clientMs: (otherProcessCpuMs(client.pid) - clientBefore) / requests,
    databaseMs: databaseKind() === 'PostgreSQL' ? cpuSince(databaseBefore, postgresCpu()) / requests : 0,
    wallMs: wallMs / requests,
    bytes,
  };
}

interface Cost {
  /** This process (the server) and its git processes. */
  cpuMs: number;
  /** PostgreSQL's processes (SQLite's work is in this process's). */
  databaseMs: number;
  /**
   * The client's process, reading the answer: not the server's cost, but under a load generator on
   * the same machine it takes the same cores, so a larger answer slows every request near saturation.
   */
  clientMs: number;
  wallMs: number;
  /** The answer's body and header values, in bytes: what the server wrote beyond the work. */
  bytes: number;
}

/** The v3 and v4 costs of one scenario side by side, with v4's CPU as a share of v3's. */
function costRow(name: string, costs: Partial<Record<Version, Cost>>): string[] {
  const cell = (version: Version, pick: (cost: Cost) => number) => (costs[version] ? ms(pick(costs[version])) : '-');
  return [
    name,
    cell('v3', (c) => c.cpuMs),
    cell('v4', (c) => c.cpuMs),
    costs.v3 && costs.v4 ? ratio(costs.v4.cpuMs / costs.v3.cpuMs) : '-',
    cell('v3', (c) => c.databaseMs),
    cell('v4', (c) => c.databaseMs),
    cell('v3', (c) => c.clientMs),
    cell('v4', (c) => c.clientMs),
    cell('v3', (c) => c.wallMs),
    cell('v4', (c) => c.wallMs),
    costs.v3 ? String(costs.v3.bytes) : '-',
    costs.v4 ? String(costs.v4.bytes) : '-',
  ];
}

const COST_HEADER = [
  'scenario',
  'v3 CPU',
  'v4 CPU',
  'v4/v3',
  'v3 PostgreSQL',
  'v4 PostgreSQL',
  'v3 client',
  'v4 client',
  'v3 wall',
  'v4 wall',
  'v3 bytes',
  'v4 bytes',
];

const average = (costs: Cost[]): Cost => ({
  cpuMs: costs.reduce((sum, c) => sum + c.cpuMs, 0) / costs.length,
  databaseMs: costs.reduce((sum, c) => sum + c.databaseMs, 0) / costs.length,
  clientMs: costs.reduce((sum, c) => sum + c.clientMs, 0) / costs.length,
  wallMs: costs.reduce((sum, c) => sum + c.wallMs, 0) / costs.length,
  bytes: Math.round(costs.reduce((sum, c) => sum + c.bytes, 0) / costs.length),
});

export function numberFrom(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`${name} must be a positive number, not ${value}`);
  return parsed;
}

const perSecond = (value: number) => `${value.toFixed(1)}/s`;
const percent = (value: number) => `${(value * 100).toFixed(2)}%`;
const verdict = (summary: LoadSummary, threshold: number) => (gptPasses(summary, threshold) ? 'pass' : 'fail');

function row(name: string, summary: LoadSummary): string[] {
  return [
    name,
    perSecond(summary.targetRate),
    perSecond(summary.achievedRate),
    ms(summary.p50),
    ms(summary.p90),
    ms(summary.p99),
    percent(summary.success),
    verdict(summary, GPT_THRESHOLD_MS),
    verdict(summary, TARGET_P90_MS),
  ];
}

const HEADER = [
  'scenario',
  'target',
  'achieved',
  'p50 TTFB',
  'p90 TTFB',
  'p99 TTFB',
  'success',
  `GPT (${GPT_THRESHOLD_MS} ms)`,
  `p90 < ${TARGET_P90_MS} ms`,
];

function describe(summary: LoadSummary): string {
  return `${perSecond(summary.achievedRate)} of ${perSecond(summary.targetRate)}, p90 ${ms(summary.p90)}, ${percent(summary.success)} ok`;
}

/** v3 and v4 of one scenario within this share of each other (the issue's target). */
const DOOR_TOLERANCE = 0.1;
const withinTolerance = (v4: number, v3: number) => Math.abs(v4 / v3 - 1) <= DOOR_TOLERANCE;

function doorsFrom(value: string | undefined): Version[] {
  if (value === undefined || value === '') return [...VERSIONS];
  const doors = value.split(',');
  const unknown = doors.filter((door) => !(VERSIONS as readonly string[]).includes(door));
  if (unknown.length > 0) throw new Error(`GPT_API takes ${VERSIONS.join(', ')} (comma-separated), not ${unknown.join(', ')}`);
  return doors as Version[];
}

/**
 * GPT's API tests as GPT writes them (v4), and each also as the same read on v3: each scenario
 * alone at a fixed rate (100/s, GPT's 5k-user rate), then all of them as one interleaved mix
 * (1,000/s), each beside a bare `node:http` server loaded the same way. `GPT_SCENARIO=<name>[,<name>…]`
 * runs only those scenarios, `GPT_MIX=1` only the mix, `GPT_API=v4` (or `v3`) only one door;
 * `GPT_RATE` and `GPT_DURATION` (seconds) change the rate and the window.
 */
async function run({ quick }: BenchOptions): Promise<TargetCheck[]> {
  const seconds = numberFrom('GPT_DURATION', quick ? 5 : 60);
  const graceSeconds = Math.min(seconds, 10);
  const only = process.env.GPT_SCENARIO;
  const mixOnly = process.env.GPT_MIX === '1';
  const doors = doorsFrom(process.env.GPT_API);
  const scenarioRate = numberFrom('GPT_RATE', SCENARIO_RATE);
  const mixRate = numberFrom('GPT_RATE', MIX_RATE);
  const shape = quick ? { commits: 1_500, files: 300 } : { commits: 5_000, files: 1_000 };

  const app = await startBenchApp();
  const bare = await startBareServer();
  try {
    const started = performance.now();
    const seeded = await seed(app, shape);
    const all = scenarios(seeded);
    const names = only ? only.split(',') : [];
    const unknown = names.filter((name) => !all.some((s) => s.name === name));
    if (unknown.length > 0) throw new Error(`no scenario ${unknown.join(', ')}; there are: ${all.map((s) => s.name).join(' ')}`);
    const chosen = mixOnly ? [] : only ? all.filter((s) => names.includes(s.name)) : all;
    console.log(
      `${databaseKind()}; seeded in ${((performance.now() - started) / 1000).toFixed(1)} s: 100 projects, 302 users, 25 groups, 5,000 issues, 10,000 notes; ` +
        `repository of ${shape.commits} commits over ${shape.files} files, ${BRANCHES} branches, ${TAGS} annotated tags, 50 pipelines; compare ${COMPARE_DISTANCE} commits apart`,
    );
    console.log(
      `open model: request i due at start + i/rate, TTFB from its due time; ${seconds} s window per run (+ up to ${graceSeconds} s for late answers); doors: ${doors.join(', ')}`,
    );

    const target = (scenario: Scenario, version: Version): OpenLoadTarget => ({
      url: `${app.url}/api/${version}${scenario[version]}`,
      headers: { 'private-token': seeded.world.benchToken },
    });
    // Requests given up by the generator are still worked on by the server: before the next run, one
    // request to each target, after them in the queue, waits until they are done.
    const load = async (targets: OpenLoadTarget[], rate: number, window = seconds) => {
      const report = await runOpenLoad({ targets, rate, seconds: window, graceSeconds: Math.min(window, graceSeconds) });
      for (const { url, headers } of targets) await timedRequest(url, { headers });
      return report;
    };
    const checks: TargetCheck[] = [];

    if (process.env.GPT_COST === '1') {
      const costs: Record<Version, Cost[]> = { v3: [], v4: [] };
      const rounds = numberFrom('GPT_COST_ROUNDS', 2);
      const requests = numberFrom('GPT_COST_REQUESTS', 400);
      const client = CostClient.start();
      const costRows: string[][] = [];
      try {
        costRows.push(costRow('bare node:http, 1 KB JSON', { v3: await measureCost(client, { url: bare.url }, requests) }));
        for (const scenario of chosen.length > 0 ? chosen : all) {
          const measured: Partial<Record<Version, Cost>> = {};
          // The door measured first warms the code both share for the other: rounds alternate the
          // order, and each door keeps its cheapest round (a busy machine only ever adds).
          for (let round = 0; round < rounds; round++) {
            for (const version of round % 2 === 0 ? doors : [...doors].reverse()) {
              const cost = await profiled(`${scenario.name}-${version}`, () => measureCost(client, target(scenario, version), requests));
              const kept = measured[version];
              if (!kept || cost.cpuMs < kept.cpuMs) measured[version] = cost;
            }
          }
          for (const version of doors) costs[version].push(measured[version]!);
          costRows.push(costRow(scenario.name, measured));
        }
      } finally {
        client.close();
      }
      const averages = Object.fromEntries(doors.map((version) => [version, average(costs[version])]));
      costRows.push(costRow('average over the scenarios', averages));
      console.log('CPU per request, requests one after the other (bare node:http in the v3 columns):');
      console.log(table(COST_HEADER, costRows));
      if (averages.v3 && averages.v4) {
        checks.push({
          bench: 'gpt',
          label: 'v4 CPU per request beside v3, average',
          value: `${ms(averages.v4.cpuMs)} vs ${ms(averages.v3.cpuMs)} (${ratio(averages.v4.cpuMs / averages.v3.cpuMs)})`,
          target: `within ${DOOR_TOLERANCE * 100} %`,
          status: withinTolerance(averages.v4.cpuMs, averages.v3.cpuMs) ? 'meets' : 'misses',
        });
      }
      return checks;
    }

    if (chosen.length > 0) {
      const rows: string[][] = [row('bare node:http, 1 KB JSON', (await load([{ url: bare.url }], scenarioRate)).total)];
      const sideBySide: string[][] = [];
      for (const [index, scenario] of chosen.entries()) {
        const summaries: Partial<Record<Version, LoadSummary>> = {};
        // Whichever door is measured first would meet what the process has not yet warmed (JIT,
        // caches, git readers) and warm the code both share for the other: both doors first run
        // unmeasured for a fifth of the window, and the order of the measured windows alternates.
        for (const version of doors) await load([target(scenario, version)], scenarioRate, Math.max(1, Math.round(seconds / 5)));
        for (const version of index % 2 === 0 ? doors : [...doors].reverse()) {
          const summary = (await load([target(scenario, version)], scenarioRate)).total;
          summaries[version] = summary;
          rows.push(row(`${scenario.name} (${version})`, summary));
          console.log(`${scenario.name} (${version}): ${describe(summary)}`);
          checks.push({
            bench: 'gpt',
            label: `${scenario.name} (${version}) at ${scenarioRate}/s`,
            value: describe(summary),
            target: `GPT rules, p90 < ${TARGET_P90_MS} ms`,
            status: gptPasses(summary, TARGET_P90_MS) ? 'meets' : 'misses',
          });
        }
        const { v3, v4 } = summaries;
        if (v3 && v4) {
          sideBySide.push([scenario.name, ms(v3.p50), ms(v4.p50), ms(v3.p90), ms(v4.p90), ratio(v4.p90 / v3.p90)]);
          checks.push({
            bench: 'gpt',
            label: `${scenario.name}: v4 beside v3 at ${scenarioRate}/s`,
            value: `p90 ${ms(v4.p90)} vs ${ms(v3.p90)}`,
            target: `within ${DOOR_TOLERANCE * 100} %`,
            status: withinTolerance(v4.p90, v3.p90) ? 'meets' : 'misses',
          });
        }
      }
      console.log(table(HEADER, rows));
      if (sideBySide.length > 0) console.log(table(['scenario', 'v3 p50', 'v4 p50', 'v3 p90', 'v4 p90', 'v4/v3 p90'], sideBySide));
    }

    if (!only) {
      const bareMix = (await load([{ url: bare.url }], mixRate)).total;
      for (const version of doors) {
        // GPT measures a server that has been serving: a process that has only been seeded has cold
        // JIT, caches and git readers, and at this rate the backlog of its first seconds outlasts the
        // window. Each door's mix first runs unmeasured at half the rate for a tenth of the window.
        const mixTargets = all.map((s) => target(s, version));
        await load(mixTargets, mixRate / 2, Math.max(2, Math.round(seconds / 10)));
        const cpuBefore = cpuSnapshot();
        const mix = await profiled(`mix-${version}`, () => load(mixTargets, mixRate));
        const cpu = describeCpuSince(cpuBefore);
        console.log(`\nall ${all.length} scenarios on ${version} as one mix at ${mixRate}/s, equal shares, interleaved:`);
        console.log(
          table(HEADER, [
            row('bare node:http, 1 KB JSON', bareMix),
            row(`mix, all scenarios (${version})`, mix.total),
            ...all.map((s, i) => row(`  ${s.name}`, mix.perTarget[i])),
          ]),
        );
        console.log(`mix p90 TTFB in each 10 s of the window: ${mix.p90ByWindow.map(ms).join(', ')}`);
        console.log(cpu);
        checks.push({
          bench: 'gpt',
          label: `mix of ${all.length} scenarios (${version}) at ${mixRate}/s`,
          value: describe(mix.total),
          target: `GPT rules (p90 < ${GPT_THRESHOLD_MS} ms)`,
          status: gptPasses(mix.total, GPT_THRESHOLD_MS) ? 'meets' : 'misses',
        });
      }
    }
    return checks;
  } finally {
    await bare.close();
    await app.close();
  }
}

export const gptBench: Benchmark = {
  name: 'gpt',
  description: "GitLab Performance Tool's API tests: open-model fixed-rate load, p90 TTFB, beside a bare node:http server",
  run,
};

interface CpuSnapshot {
  machine: { busy: number; total: number };
  forge: number;
  postgres: Map<string, number>;
}

function cpuSnapshot(): CpuSnapshot {
  const { user, system } = process.cpuUsage();
  return { machine: machineCpuMs(), forge: (user + system) / 1000, postgres: postgresCpu() };
}

/**
 * The machine's CPU since `before` and who used it, as shares of all its cores: Forge's own process
 * (its git children not included), PostgreSQL's processes, and the rest (the load generator, git,
 * the kernel's loopback). Near saturation a few per cent more makes queues, and p90, grow many times.
 */
function describeCpuSince(before: CpuSnapshot): string {
  const now = cpuSnapshot();
  const total = now.machine.total - before.machine.total;
  const percent = (value: number) => `${total > 0 ? ((value / total) * 100).toFixed(0) : '?'} %`;
  const busy = now.machine.busy - before.machine.busy;
  const forge = now.forge - before.forge;
  const postgres = cpuSince(before.postgres, now.postgres);
  const rest = Math.max(0, busy - forge - postgres);
  return (
    `machine CPU over the window and its grace: ${percent(busy)} of ${os.cpus().length} cores busy; ` +
    `Forge's process ${percent(forge)}, PostgreSQL ${percent(postgres)}, the rest (load generator, git, kernel) ${percent(rest)}`
  );
}
