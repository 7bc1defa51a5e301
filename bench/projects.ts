import { performance } from 'node:perf_hooks';
import type { Benchmark, BenchOptions, TargetCheck } from './support/types';
import { databaseKind, startBenchApp } from './support/app';
import { timedRequest } from './support/http';
import { seedProjects, type SeedShape } from './support/seed-projects';
import { ms, percentile, ratio, table } from './support/stats';

const P99_TARGET_MS = 20;
const GROWTH_TARGET = 2;

interface Measured {
  shape: SeedShape;
  seedSeconds: number;
  cases: { name: string; total: number; p50: number; p99: number }[];
}

/** Sequential requests on one kept-alive connection: each sample is one request's own latency. */
async function latencies(url: string, token: string, count: number): Promise<{ samples: number[]; total: number }> {
  const headers = { 'private-token': token };
  const samples: number[] = [];
  let total = NaN;
  for (let n = 0; n < count; n++) {
    const response = await timedRequest(url, { headers });
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${response.body.toString().slice(0, 200)}`);
    samples.push(response.ms);
    total = Number(response.headers['x-total']);
  }
  return { samples, total };
}

async function measure(shape: SeedShape, requests: number): Promise<Measured> {
  const app = await startBenchApp();
  try {
    const started = performance.now();
    const world = await seedProjects(app.database, app.ctx.secrets, shape);
    const seedSeconds = (performance.now() - started) / 1000;
    const cases = [
      { name: 'GET /projects', url: `${app.url}/api/v3/projects` },
      {
        name: `GET /projects?search=${world.searchTerm}`,
        url: `${app.url}/api/v3/projects?search=${encodeURIComponent(world.searchTerm)}`,
      },
    ];
    const results = [];
    for (const { name, url } of cases) {
      await latencies(url, world.benchToken, Math.min(50, requests));
      const { samples, total } = await latencies(url, world.benchToken, requests);
      if (name === 'GET /projects' && total !== world.memberProjects)
        throw new Error(`the caller sees ${total} projects, expected ${world.memberProjects}`);
      results.push({ name, total, p50: percentile(samples, 50), p99: percentile(samples, 99) });
    }
    return { shape, seedSeconds, cases: results };
  } finally {
    await app.close();
  }
}

/** GET /api/v3/projects for a member of 50 projects, on 10,000 projects and on 1,000. */
async function run({ quick }: BenchOptions): Promise<TargetCheck[]> {
  const requests = quick ? 200 : 1000;
  const large = await measure({ projects: 10_000, users: 1_000, groups: 1_000 }, requests);
  const small = await measure({ projects: 1_000, users: 100, groups: 100 }, requests);

  console.log(`${databaseKind()}; ${requests} sequential requests per case on one kept-alive connection, as a member of 50 projects`);
  for (const m of [large, small])
    console.log(`seeded ${m.shape.projects} projects, ${m.shape.users} users, ${m.shape.groups} groups in ${m.seedSeconds.toFixed(1)} s`);
  const rows = large.cases.map((big, i) => {
    const little = small.cases[i];
    return [
      big.name,
      String(big.total),
      ms(big.p50),
      ms(big.p99),
      ms(little.p50),
      ms(little.p99),
      ratio(big.p50 / little.p50),
      ratio(big.p99 / little.p99),
    ];
  });
  console.log(table(['request', 'results', 'p50 10k', 'p99 10k', 'p50 1k', 'p99 1k', 'p50 10k/1k', 'p99 10k/1k'], rows));

  return large.cases.flatMap((big, i) => {
    const little = small.cases[i];
    // Growth is judged on the median: one slow outlier among a thousand should not read as a growing query.
    const growth = big.p50 / little.p50;
    return [
      {
        bench: 'projects',
        label: `${big.name} p99, 10,000 projects`,
        value: ms(big.p99),
        target: `< ${P99_TARGET_MS} ms`,
        status: big.p99 < P99_TARGET_MS ? 'meets' : 'misses',
      },
      {
        bench: 'projects',
        label: `${big.name} p50, 10,000 vs 1,000 projects`,
        value: `${ms(big.p50)} vs ${ms(little.p50)} = ${ratio(growth)}`,
        target: `≤ ${GROWTH_TARGET}×`,
        status: growth <= GROWTH_TARGET ? 'meets' : 'misses',
      },
    ] satisfies TargetCheck[];
  });
}

export const projectsBench: Benchmark = {
  name: 'projects',
  description: 'GET /api/v3/projects (list and search) on 10,000 and 1,000 projects',
  run,
};
