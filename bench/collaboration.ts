import { performance } from 'node:perf_hooks';
import type { Benchmark, BenchOptions, TargetCheck } from './support/types';
import { databaseKind, startBenchApp } from './support/app';
import { timedRequest } from './support/http';
import { seedCollaboration, type CollaborationShape } from './support/seed-collaboration';
import { ms, percentile, ratio, table } from './support/stats';

const P99_TARGET_MS = 20;
const GROWTH_TARGET = 2;
const LARGE: CollaborationShape = { issues: 50_000, notes: 100_000 };
const SMALL: CollaborationShape = { issues: 5_000, notes: 10_000 };

interface Case {
  name: string;
  path: string;
  /** The administrator instead of the measured member. */
  admin?: boolean;
  /** What `X-Total` must say, where the seed knows it. */
  total?: number;
}

interface Measured {
  shape: CollaborationShape;
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

async function measure(shape: CollaborationShape, requests: number): Promise<Measured> {
  const app = await startBenchApp();
  try {
    const started = performance.now();
    const world = await seedCollaboration(app.database, app.ctx.secrets, shape);
    const seedSeconds = (performance.now() - started) / 1000;
    const project = `/projects/${world.projectId}`;
    const cases: Case[] = [
      { name: 'GET /projects/:id/issues', path: `${project}/issues` },
      {
        name: `GET /projects/:id/issues?state=opened&labels=${world.labelTitle}`,
        path: `${project}/issues?state=opened&labels=${world.labelTitle}`,
      },
      { name: 'GET /projects/:id/issues (admin)', path: `${project}/issues`, admin: true },
      { name: 'GET /issues', path: '/issues', total: world.authoredVisible },
      { name: 'GET /groups/:id/issues', path: `/groups/${world.groupId}/issues` },
      { name: 'GET /projects/:id/issues/:id/notes', path: `${project}/issues/${world.busyIssueId}/notes` },
      { name: 'GET /todos', path: '/todos', total: world.pendingTodos },
    ];
    const results = [];
    for (const { name, path, admin, total: expected } of cases) {
      const url = `${app.url}/api/v3${path}`;
      const token = admin ? app.rootToken : world.benchToken;
      await latencies(url, token, Math.min(50, requests));
      const { samples, total } = await latencies(url, token, requests);
      if (expected !== undefined && total !== expected) throw new Error(`${name} totals ${total}, expected ${expected}`);
      results.push({ name, total, p50: percentile(samples, 50), p99: percentile(samples, 99) });
    }
    return { shape, seedSeconds, cases: results };
  } finally {
    await app.close();
  }
}

const size = (shape: CollaborationShape) => `${shape.issues / 1000}k`;

/** Issue, note and todo lists on 50,000 issues / 100,000 notes and on a tenth of that, over 100 projects. */
async function run({ quick }: BenchOptions): Promise<TargetCheck[]> {
  const requests = quick ? 200 : 1000;
  const large = await measure(LARGE, requests);
  const small = await measure(SMALL, requests);
  const [big, little] = [size(LARGE), size(SMALL)];

  console.log(
    `${databaseKind()}; ${requests} sequential requests per case on one kept-alive connection, as a developer of 44 of 100 projects (admin where marked)`,
  );
  for (const m of [large, small])
    console.log(`seeded ${m.shape.issues} issues and ${m.shape.notes} notes over 100 projects in ${m.seedSeconds.toFixed(1)} s`);
  const rows = large.cases.map((l, i) => {
    const s = small.cases[i];
    return [l.name, String(l.total), ms(l.p50), ms(l.p99), ms(s.p50), ms(s.p99), ratio(l.p50 / s.p50), ratio(l.p99 / s.p99)];
  });
  console.log(
    table(
      [
        'request',
        `results ${big}`,
        `p50 ${big}`,
        `p99 ${big}`,
        `p50 ${little}`,
        `p99 ${little}`,
        `p50 ${big}/${little}`,
        `p99 ${big}/${little}`,
      ],
      rows,
    ),
  );

  return large.cases.flatMap((l, i) => {
    const s = small.cases[i];
    // Growth is judged on the median, as in `projects`: one slow outlier should not read as a growing query.
    const growth = l.p50 / s.p50;
    return [
      {
        bench: 'collaboration',
        label: `${l.name} p99, ${big} issues`,
        value: ms(l.p99),
        target: `< ${P99_TARGET_MS} ms`,
        status: l.p99 < P99_TARGET_MS ? 'meets' : 'misses',
      },
      {
        bench: 'collaboration',
        label: `${l.name} p99, ${little} issues`,
        value: ms(s.p99),
        target: `< ${P99_TARGET_MS} ms`,
        status: s.p99 < P99_TARGET_MS ? 'meets' : 'misses',
      },
      {
        bench: 'collaboration',
        label: `${l.name} p50, ${big} vs ${little} issues`,
        value: `${ms(l.p50)} vs ${ms(s.p50)} = ${ratio(growth)}`,
        target: `< ${GROWTH_TARGET}×`,
        status: growth < GROWTH_TARGET ? 'meets' : 'misses',
      },
    ] satisfies TargetCheck[];
  });
}

export const collaborationBench: Benchmark = {
  name: 'collaboration',
  description: 'issue, note and todo lists on 50,000 issues / 100,000 notes and on 5,000 / 10,000',
  run,
};
