import fs from 'node:fs';
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
import { ms, table } from './support/stats';
import { apiCall, timedRequest } from './support/http';
import { repoPathOf } from '../src/services/repository/repositories';
import { refsMoved } from '../src/services/repository/refs-version';
import { cpuSince, postgresCpu, serverCpuMs } from './support/cpu';
import { profiled } from './support/profile';

/** GPT's rate: 20 requests per second per 1,000 users; 100/s is its 5k-user reference. */
const SCENARIO_RATE = 100;
const MIX_RATE = 1_000;
/** GPT's default p90 threshold, and the issue's own target for single scenarios. */
const GPT_THRESHOLD_MS = 200;
const TARGET_P90_MS = 20;
const BRANCHES = 20;
const TAGS = 20;
const COMPARE_DISTANCE = 500;

interface Scenario {
  /** GPT's test name (its v4 paths, here as the v3 requests Forge answers). */
  name: string;
  path: string;
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
  const mergeRequestId = await seedMergeRequest(app, world.projectId, await git(repoPath, 'rev-parse', 'master~100'));
  // A server in service has its statistics gathered and its tables vacuumed by autovacuum; a
  // database seeded a moment ago has neither, and autovacuum would start on it in the middle of a run.
  if (app.database.dialect === 'postgres') await sql`vacuum analyze`.execute(app.database.db);
  return { world, fixture, head, compareFrom, repoPath, mergeRequestId };
}

/**
 * A merge request through the API, as a user makes one: a branch from an older commit, a commit on
 * it by the files API, the request into master, and a few notes. Answers its id.
 */
async function seedMergeRequest(app: BenchApp, projectId: number, startSha: string): Promise<number> {
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
  return mergeRequest.id;
}

function scenarios(seeded: Awaited<ReturnType<typeof seed>>): Scenario[] {
  const { world, fixture, head, compareFrom, mergeRequestId } = seeded;
  const project = `/projects/${world.projectId}`;
  const repo = `${project}/repository`;
  const mergeRequest = `${project}/merge_requests/${mergeRequestId}`;
  return [
    { name: 'api_v4_projects_project', path: project },
    { name: 'api_v4_projects', path: '/projects' },
    { name: 'api_v4_groups_group', path: `/groups/${world.groupId}` },
    { name: 'api_v4_groups_projects', path: `/groups/${world.groupId}/projects` },
    { name: 'api_v4_users', path: '/users' },
    { name: 'api_v4_user', path: '/user' },
    { name: 'api_v4_projects_repository_branches', path: `${repo}/branches` },
    { name: 'api_v4_projects_repository_branches_branch', path: `${repo}/branches/master` },
    { name: 'api_v4_projects_repository_tags', path: `${repo}/tags` },
    { name: 'api_v4_projects_repository_commits', path: `${repo}/commits` },
    { name: 'api_v4_projects_repository_commits_commit', path: `${repo}/commits/${fixture.middleSha}` },
    { name: 'api_v4_projects_repository_commits_commit_diff', path: `${repo}/commits/${fixture.middleSha}/diff` },
    { name: 'api_v4_projects_repository_compare_commits', path: `${repo}/compare?from=${compareFrom}&to=${head}` },
    { name: 'api_v4_projects_repository_files_file', path: `${repo}/files?file_path=README.md&ref=master` },
    { name: 'api_v4_projects_repository_tree', path: `${repo}/tree` },
    { name: 'api_v4_projects_issues', path: `${project}/issues` },
    { name: 'api_v4_projects_issues_issue', path: `${project}/issues/${world.busyIssueId}` },
    { name: 'api_v4_projects_issues_issue_notes', path: `${project}/issues/${world.busyIssueId}/notes` },
    { name: 'api_v4_projects_pipelines', path: `${project}/pipelines` },
    { name: 'api_v4_projects_merge_requests', path: `${project}/merge_requests` },
    { name: 'api_v4_projects_merge_requests_merge_request', path: mergeRequest },
    { name: 'api_v4_projects_merge_requests_merge_request_changes', path: `${mergeRequest}/changes` },
    { name: 'api_v4_projects_merge_requests_merge_request_commits', path: `${mergeRequest}/commits` },
    { name: 'api_v4_projects_merge_requests_merge_request_notes', path: `${mergeRequest}/notes` },
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

const COST_REQUESTS = 400;

/**
 * What one request costs the machine: CPU of this process (server and client) and of the git
 * processes it runs, over requests sent one after the other after a warm-up, beside the wall time.
 */
async function measureCost(target: OpenLoadTarget): Promise<Cost> {
  for (let i = 0; i < 20; i++) await timedRequest(target.url, { headers: target.headers });
  const databaseBefore = postgresCpu();
  const cpuBefore = serverCpuMs();
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < COST_REQUESTS) {
      next += 1;
      const response = await timedRequest(target.url, { headers: target.headers });
      if (response.status >= 300) throw new Error(`${target.url} answered ${response.status}`);
    }
  };
  await worker();
  const wallMs = performance.now() - started;
  const cpuMs = serverCpuMs() - cpuBefore;
  return {
    cpuMs: cpuMs / COST_REQUESTS,
    databaseMs: cpuSince(databaseBefore, postgresCpu()) / COST_REQUESTS,
    wallMs: wallMs / COST_REQUESTS,
  };
}

interface Cost {
  /** This process (server and client) and its git processes. */
  cpuMs: number;
  /** PostgreSQL's processes (SQLite's work is in this process's). */
  databaseMs: number;
  wallMs: number;
}

const costRow = (name: string, cost: Cost) => [name, ms(cost.cpuMs), ms(cost.databaseMs), ms(cost.wallMs), (1000 / cost.wallMs).toFixed(0)];

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

/**
 * GPT's API tests as v3 requests: each scenario alone at a fixed rate (100/s, GPT's 5k-user rate),
 * then all of them as one interleaved mix (1,000/s), each beside a bare `node:http` server loaded
 * the same way. `GPT_SCENARIO=<name>[,<name>…]` runs only those scenarios, `GPT_MIX=1` only the mix; `GPT_RATE` and
 * `GPT_DURATION` (seconds) change the rate and the window.
 */
async function run({ quick }: BenchOptions): Promise<TargetCheck[]> {
  const seconds = numberFrom('GPT_DURATION', quick ? 5 : 60);
  const graceSeconds = Math.min(seconds, 10);
  const only = process.env.GPT_SCENARIO;
  const mixOnly = process.env.GPT_MIX === '1';
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
      `open model: request i due at start + i/rate, TTFB from its due time; ${seconds} s window per run (+ up to ${graceSeconds} s for late answers)`,
    );

    const target = (apiPath: string): OpenLoadTarget => ({
      url: `${app.url}/api/v3${apiPath}`,
      headers: { 'private-token': seeded.world.benchToken },
    });
    // Requests given up by the generator are still worked on by the server: before the next run, one
    // request to each target, after them in the queue, waits until they are done.
    const load = async (targets: OpenLoadTarget[], rate: number) => {
      const report = await runOpenLoad({ targets, rate, seconds, graceSeconds });
      for (const { url, headers } of targets) await timedRequest(url, { headers });
      return report;
    };
    const checks: TargetCheck[] = [];
    const rows: string[][] = [];

    if (process.env.GPT_COST === '1') {
      const costRows = [costRow('bare node:http, 1 KB JSON', await measureCost({ url: bare.url }))];
      for (const scenario of chosen.length > 0 ? chosen : all) {
        costRows.push(costRow(scenario.name, await profiled(scenario.name, () => measureCost(target(scenario.path)))));
      }
      console.log(
        table(['scenario', 'CPU per request', 'PostgreSQL CPU', 'wall per request', 'requests/s (one after the other)'], costRows),
      );
      return checks;
    }

    if (chosen.length > 0) {
      rows.push(row('bare node:http, 1 KB JSON', (await load([{ url: bare.url }], scenarioRate)).total));
      for (const scenario of chosen) {
        const summary = (await load([target(scenario.path)], scenarioRate)).total;
        rows.push(row(scenario.name, summary));
        console.log(`${scenario.name}: ${describe(summary)}`);
        checks.push({
          bench: 'gpt',
          label: `${scenario.name} at ${scenarioRate}/s`,
          value: describe(summary),
          target: `GPT rules, p90 < ${TARGET_P90_MS} ms`,
          status: gptPasses(summary, TARGET_P90_MS) ? 'meets' : 'misses',
        });
      }
      console.log(table(HEADER, rows));
    }

    if (!only) {
      const bareMix = (await load([{ url: bare.url }], mixRate)).total;
      const mix = await profiled('mix', () =>
        load(
          all.map((s) => target(s.path)),
          mixRate,
        ),
      );
      console.log(`\nall ${all.length} scenarios as one mix at ${mixRate}/s, equal shares, interleaved:`);
      console.log(
        table(HEADER, [
          row('bare node:http, 1 KB JSON', bareMix),
          row('mix, all scenarios', mix.total),
          ...all.map((s, i) => row(`  ${s.name}`, mix.perTarget[i])),
        ]),
      );
      console.log(`mix p90 TTFB in each 10 s of the window: ${mix.p90ByWindow.map(ms).join(', ')}`);
      checks.push({
        bench: 'gpt',
        label: `mix of ${all.length} scenarios at ${mixRate}/s`,
        value: describe(mix.total),
        target: `GPT rules (p90 < ${GPT_THRESHOLD_MS} ms)`,
        status: gptPasses(mix.total, GPT_THRESHOLD_MS) ? 'meets' : 'misses',
      });
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
