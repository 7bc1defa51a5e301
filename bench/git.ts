import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Benchmark, BenchOptions, TargetCheck } from './support/types';
import { databaseKind, startBenchApp, type BenchApp } from './support/app';
import { apiCall, timedRequest } from './support/http';
import { git, timeSpawn } from './support/spawn';
import { buildFixture, type Fixture } from './support/git-fixture';
import { median, ms, ratio, table } from './support/stats';
import { repoPathOf } from '../src/services/repository/repositories';

const READ_TARGET = 1.5;
const CLONE_TARGET = 1.2;

interface ReadCase {
  name: string;
  /** API paths under the project, requested one after the other (in round `n`, for cases that change each round). */
  api: string[] | ((round: number) => string[]);
  /** git commands run one after the other in the bare repository. */
  git: string[][] | ((round: number) => string[][]);
}

const inRound = <T>(value: T[] | ((round: number) => T[]), round: number): T[] => (typeof value === 'function' ? value(round) : value);

/** `api` and `git` are medians; `apiCold` is the API's first answer, before anything was cached or warmed. */
type Outcome =
  | { kind: 'measured'; api: number; apiCold?: number; git: number; samples: number }
  | { kind: 'unavailable' | 'error'; detail: string };

/**
 * `olderShas` are commits below the middle one, never asked before: a commit's diff and stats are
 * cached by sha, so the same read with another commit each round measures the uncached path.
 */
function readCases(fixture: Fixture, olderShas: string[]): ReadCase[] {
  const { middleSha: sha, compareFrom: from, compareTo: to, deepFolder: deep, blobSha } = fixture;
  const older = (round: number) => olderShas[round % olderShas.length];
  return [
    { name: 'commits, page 1', api: ['/repository/commits'], git: [['log', '-20']] },
    { name: 'commit + its diff', api: [`/repository/commits/${sha}`, `/repository/commits/${sha}/diff`], git: [['show', sha]] },
    {
      name: 'commit + diff, uncached',
      api: (round) => [`/repository/commits/${older(round)}`, `/repository/commits/${older(round)}/diff`],
      git: (round) => [['show', older(round)]],
    },
    { name: 'tree of the root', api: ['/repository/tree'], git: [['ls-tree', 'HEAD']] },
    { name: 'tree of a deep folder', api: [`/repository/tree?path=${encodeURIComponent(deep)}`], git: [['ls-tree', `HEAD:${deep}`]] },
    { name: 'raw blob', api: [`/repository/raw_blobs/${blobSha}`], git: [['cat-file', '-p', blobSha]] },
    {
      name: `compare, ${fixture.compareDistance} commits apart`,
      api: [`/repository/compare?from=${from}&to=${to}`],
      git: [
        ['log', `${from}..${to}`],
        ['diff', `${from}...${to}`],
      ],
    },
    { name: 'contributors', api: ['/repository/contributors'], git: [['shortlog', '-sne', 'HEAD']] },
  ];
}

/** Runs the API requests and the git commands in turn, `reps` times (fewer when slow, at least 3), and keeps each side's median. */
async function measureRead(
  app: BenchApp,
  projectId: number,
  repoPath: string,
  readCase: ReadCase,
  reps: number,
  budgetMs: number,
): Promise<Outcome> {
  const headers = { 'private-token': app.rootToken };
  const callApi = async (round: number): Promise<{ ms: number } | { status: number; detail: string }> => {
    let total = 0;
    for (const apiPath of inRound(readCase.api, round)) {
      const response = await timedRequest(`${app.url}/api/v3/projects/${projectId}${apiPath}`, { headers });
      if (response.status !== 200)
        return {
          status: response.status,
          detail: `${apiPath.split('?')[0]}: ${response.status} ${response.body.toString().slice(0, 120)}`,
        };
      total += response.ms;
    }
    return { ms: total };
  };
  const runGit = async (round: number) => {
    let total = 0;
    for (const args of inRound(readCase.git, round)) total += (await timeSpawn('git', args, { cwd: repoPath })).ms;
    return total;
  };

  // The first round warms caches on both sides and tells whether the route is there; its time is
  // reported as the cold one (results cached by commit are computed there).
  const first = await callApi(0);
  if ('status' in first) return { kind: first.status === 404 ? 'unavailable' : 'error', detail: first.detail };
  await runGit(0);
  const apiTimes: number[] = [];
  const gitTimes: number[] = [];
  const started = performance.now();
  while (apiTimes.length < reps && (apiTimes.length < 3 || performance.now() - started < budgetMs)) {
    const round = apiTimes.length + 1;
    const api = await callApi(round);
    if ('status' in api) return { kind: 'error', detail: api.detail };
    apiTimes.push(api.ms);
    gitTimes.push(await runGit(round));
  }
  return { kind: 'measured', api: median(apiTimes), apiCold: first.ms, git: median(gitTimes), samples: apiTimes.length };
}

function packBytes(repoPath: string): number {
  const packDir = path.join(repoPath, 'objects', 'pack');
  return fs
    .readdirSync(packDir)
    .filter((f) => f.endsWith('.pack'))
    .reduce((sum, f) => sum + fs.statSync(path.join(packDir, f)).size, 0);
}

/**
 * `git clone` over HTTP beside `git clone --no-local` of the same bare repository, after one untimed
 * clone of each, in alternating order (ABBA). Clones are deleted only at the end: on this kind of
 * machine a clone started right after deleting one (5,000 files) took up to twice as long.
 */
async function measureClone(httpUrl: string, repoPath: string, scratch: string, reps: number): Promise<Outcome & { bytes?: number }> {
  const probe = await timedRequest(`${httpUrl}/info/refs?service=git-upload-pack`);
  if (probe.status !== 200)
    return {
      kind: probe.status === 404 ? 'unavailable' : 'error',
      detail: `info/refs: ${probe.status} ${probe.body.toString().slice(0, 120)}`,
    };
  const overHttp = (n: number) => timeSpawn('git', ['clone', '--quiet', httpUrl, path.join(scratch, `http-${n}`)]);
  const local = (n: number) => timeSpawn('git', ['clone', '--quiet', '--no-local', repoPath, path.join(scratch, `local-${n}`)]);
  await overHttp(0);
  await local(0);
  const httpTimes: number[] = [];
  const localTimes: number[] = [];
  for (let n = 1; n <= reps; n++) {
    if (n % 2 === 1) {
      httpTimes.push((await overHttp(n)).ms);
      localTimes.push((await local(n)).ms);
    } else {
      localTimes.push((await local(n)).ms);
      httpTimes.push((await overHttp(n)).ms);
    }
  }
  const bytes = packBytes(path.join(scratch, 'http-0', '.git'));
  fs.rmSync(scratch, { recursive: true, force: true });
  return { kind: 'measured', api: median(httpTimes), git: median(localTimes), samples: reps, bytes };
}

/** A project created through the API, its repository replaced by the generated one, as a first push would leave it. */
export async function projectWithHistory(app: BenchApp, shape: { commits: number; files: number }) {
  const project = await apiCall(app.url, app.rootToken, 'POST', '/projects', { name: 'history', visibility_level: 20 });
  const repoPath = repoPathOf(app.ctx, project.id);
  const built = path.join(app.config.dataDir, 'bench-build.git');
  const fixture = await buildFixture(built, shape);
  fs.rmSync(repoPath, { recursive: true, force: true });
  fs.renameSync(built, repoPath);
  // Forge's repositories have an empty hooks directory: nothing runs inside git.
  fs.rmSync(path.join(repoPath, 'hooks'), { recursive: true, force: true });
  fs.mkdirSync(path.join(repoPath, 'hooks'));
  await app.database.db.updateTable('projects').set({ default_branch: 'master' }).where('id', '=', project.id).execute();
  return { project, repoPath, fixture };
}

async function run({ quick }: BenchOptions): Promise<TargetCheck[]> {
  const shape = quick ? { commits: 5_000, files: 2_000 } : { commits: 20_000, files: 5_000 };
  const reps = quick ? 5 : 11;
  const cloneReps = quick ? 2 : 4;
  const app = await startBenchApp();
  try {
    const { project, repoPath, fixture } = await projectWithHistory(app, shape);
    console.log(
      `${databaseKind()}; repository of ${shape.commits} commits and ${shape.files} files, pack ${(fixture.packBytes / 2 ** 20).toFixed(1)} MiB ` +
        `(fast-import ${fixture.seconds.generate.toFixed(1)} s, gc ${fixture.seconds.gc.toFixed(1)} s)`,
    );
    console.log(
      `median of up to ${reps} runs each (at least 3), API requests and git commands alternating; API times include HTTP on loopback`,
    );

    const checks: TargetCheck[] = [];
    const rows: string[][] = [];
    const olderShas = (await git(repoPath, 'rev-list', `--max-count=${reps + 2}`, `${fixture.middleSha}~1`)).split('\n');
    for (const readCase of readCases(fixture, olderShas)) {
      const outcome = await measureRead(app, project.id, repoPath, readCase, reps, 20_000);
      const gitText =
        inRound(readCase.git, 0)
          .map((args) => `git ${args.join(' ')}`)
          .join(' + ')
          .replace(/[0-9a-f]{40}/g, (sha) => sha.slice(0, 8)) + (typeof readCase.git === 'function' ? ' (another commit each run)' : '');
      rows.push(row(readCase.name, gitText, outcome, ms));
      checks.push(check(readCase.name, outcome, READ_TARGET, ms));
    }

    const scratch = fs.mkdtempSync(path.join(app.config.dataDir, 'clones-'));
    const clone = await measureClone(project.http_url_to_repo, repoPath, scratch, cloneReps);
    const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;
    const throughput =
      clone.kind === 'measured' && clone.bytes ? `, ${(clone.bytes / 2 ** 20 / (clone.api / 1000)).toFixed(1)} MiB/s over HTTP` : '';
    rows.push(row('clone', 'git clone --no-local <bare repository>', clone, seconds));
    checks.push(check(`clone${throughput}`, clone, CLONE_TARGET, seconds));

    console.log(table(['read', 'API', 'API cold', 'git', 'API/git', 'cold/git', 'runs', 'git command'], rows));
    return checks;
  } finally {
    await app.close();
  }
}

function row(name: string, gitText: string, outcome: Outcome, format: (value: number) => string): string[] {
  if (outcome.kind !== 'measured')
    return [name, outcome.kind === 'unavailable' ? 'not available' : 'error', '-', '-', '-', '-', '-', `${gitText}  [${outcome.detail}]`];
  const cold = outcome.apiCold;
  return [
    name,
    format(outcome.api),
    cold === undefined ? '-' : format(cold),
    format(outcome.git),
    ratio(outcome.api / outcome.git),
    cold === undefined ? '-' : ratio(cold / outcome.git),
    String(outcome.samples),
    gitText,
  ];
}

function check(name: string, outcome: Outcome, target: number, format: (value: number) => string): TargetCheck {
  const base = { bench: 'git', label: name, target: `≤ ${target}× git` };
  if (outcome.kind !== 'measured') {
    return outcome.kind === 'unavailable'
      ? { ...base, value: 'route answers 404', status: 'not available' }
      : { ...base, value: outcome.detail, status: 'misses' };
  }
  const measured = outcome.api / outcome.git;
  const cold = outcome.apiCold === undefined ? '' : ` (cold ${format(outcome.apiCold)} = ${ratio(outcome.apiCold / outcome.git)})`;
  return {
    ...base,
    value: `${format(outcome.api)} vs ${format(outcome.git)} = ${ratio(measured)}${cold}`,
    status: measured <= target ? 'meets' : 'misses',
  };
}

export const gitBench: Benchmark = {
  name: 'git',
  description: 'repository API reads and clone over HTTP beside plain git on a 20,000-commit repository',
  run,
};
