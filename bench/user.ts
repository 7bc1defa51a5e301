import Fastify from 'fastify';
import type { Benchmark, BenchOptions, TargetCheck } from './support/types';
import { databaseKind, startBenchApp } from './support/app';
import { apiCall } from './support/http';
import { loadTest, type LoadResult } from './support/autocannon';
import { median, table } from './support/stats';

const CONNECTIONS = 10;
const SHARE_TARGET = 0.5;
/** What metrics may cost `GET /user` (issue 28). */
const METRICS_COST_TARGET = 0.03;

/**
 * GET /api/v3/user with a private token, beside a bare Fastify route answering the same JSON, and
 * beside a second Forge in this process with its metrics off (`METRICS_ENABLED=false`), for what
 * metrics cost.
 */
async function run({ quick }: BenchOptions): Promise<TargetCheck[]> {
  const rounds = quick ? 1 : 2;
  const seconds = quick ? 3 : 5;
  const warmup = quick ? 1 : 2;
  const app = await startBenchApp();
  const unmeasured = await startBenchApp({ METRICS_ENABLED: 'false' });
  const bare = Fastify({ logger: false });
  try {
    const { user, token } = await createUser(app.url, app.rootToken);
    const other = await createUser(unmeasured.url, unmeasured.rootToken);
    const body = await apiCall(app.url, token, 'GET', '/user');
    if (body.id !== user.id) throw new Error('GET /user answered someone else');
    bare.get('/api/v3/user', async () => body);
    const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

    const targets: { name: string; db: string; url: string; headers?: Record<string, string> }[] = [
      {
        name: 'Forge GET /api/v3/user (private token)',
        db: databaseKind(),
        url: `${app.url}/api/v3/user`,
        headers: { 'private-token': token },
      },
      { name: 'bare Fastify, same JSON', db: 'none', url: `${bareUrl}/api/v3/user` },
      {
        name: 'Forge GET /api/v3/user, metrics off',
        db: databaseKind(),
        url: `${unmeasured.url}/api/v3/user`,
        headers: { 'private-token': other.token },
      },
      // Not a target: what Forge's request pipeline costs on a route with no database and no authentication.
      { name: 'Forge GET /-/health (for reference)', db: 'none', url: `${app.url}/-/health` },
    ];
    for (const { url, headers } of targets) await loadTest(url, { connections: CONNECTIONS, seconds: warmup, headers });
    // Rounds alternate the routes, and each keeps its best round: other load on the machine slows one round, not all.
    const best: LoadResult[] = [];
    // The server's CPU time per request (this process: autocannon runs in its own), which other load on
    // the machine moves far less than throughput; each route keeps its lowest round, as throughput its best.
    const cpuPerRequest = targets.map(() => Number.POSITIVE_INFINITY);
    for (let round = 0; round < rounds; round++) {
      for (const [i, { url, headers }] of targets.entries()) {
        const cpuBefore = process.cpuUsage();
        const result = await loadTest(url, { connections: CONNECTIONS, seconds, headers });
        const used = process.cpuUsage(cpuBefore);
        cpuPerRequest[i] = Math.min(cpuPerRequest[i], (used.user + used.system) / result.requests);
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
        if (!best[i] || result.requestsPerSecond > best[i].requestsPerSecond) best[i] = result;
      }
    }
    const [forge, baseline, withoutMetrics] = best;
    const costs = await metricsCostPairs(targets[0], targets[2], quick);

    console.log(
      `autocannon in its own process, ${CONNECTIONS} connections; best of ${rounds} round(s) of ${seconds} s per route after ${warmup} s of warm-up; latencies in whole ms`,
    );
    console.log(
      table(
        ['route', 'database', 'req/s', 'of bare', 'CPU/request', 'mean', 'p50', 'p99', 'requests'],
        targets.map(({ name, db }, i) => {
          const r = best[i];
          return [
            name,
            db,
            `${Math.round(r.requestsPerSecond)} req/s`,
            `${((r.requestsPerSecond / baseline.requestsPerSecond) * 100).toFixed(0)}%`,
            `${cpuPerRequest[i].toFixed(1)} µs`,
            `${r.mean.toFixed(2)} ms`,
            `${r.p50} ms`,
            `${r.p99} ms`,
            String(r.requests),
          ];
        }),
      ),
    );
    const share = forge.requestsPerSecond / baseline.requestsPerSecond;
    // By CPU time per request: throughput on a shared machine swings by more than the 3 % looked for.
    // Negative when the measured one happened to do better: noise, within which metrics cost nothing.
    const metricsCost = median(costs.map((pair) => pair.on / pair.off)) - 1;
    const [withCpu, withoutCpu] = [median(costs.map((pair) => pair.on)), median(costs.map((pair) => pair.off))];
    const spread = costs.map((pair) => pair.on / pair.off - 1).sort((a, b) => a - b);
    console.log(
      `metrics on vs off, server CPU per request in ${costs.length} interleaved pairs of rounds: ${spread.map((cost) => `${cost >= 0 ? '+' : ''}${(cost * 100).toFixed(1)}%`).join(' ')}`,
    );
    return [
      {
        bench: 'user',
        label: `GET /api/v3/user throughput vs bare Fastify (p50 ${forge.p50} ms, p99 ${forge.p99} ms)`,
        value: `${Math.round(forge.requestsPerSecond)} vs ${Math.round(baseline.requestsPerSecond)} req/s = ${(share * 100).toFixed(0)}%`,
        target: `≥ ${SHARE_TARGET * 100}%`,
        status: share >= SHARE_TARGET ? 'meets' : 'misses',
      },
      {
        bench: 'user',
        label: `what metrics cost GET /api/v3/user: server CPU per request, on vs off, median of ${costs.length} pairs (${Math.round(forge.requestsPerSecond)} vs ${Math.round(withoutMetrics.requestsPerSecond)} req/s)`,
        value: `${withCpu.toFixed(1)} vs ${withoutCpu.toFixed(1)} µs = ${metricsCost >= 0 ? '+' : ''}${(metricsCost * 100).toFixed(1)}%`,
        target: `< ${METRICS_COST_TARGET * 100}%`,
        status: metricsCost < METRICS_COST_TARGET ? 'meets' : 'misses',
      },
    ];
  } finally {
    await bare.close();
    await unmeasured.close();
    await app.close();
  }
}

interface Route {
  url: string;
  headers?: Record<string, string>;
}

/**
 * What metrics cost, as pairs of short rounds on and off, one right after the other and in turns
 * first, each pair's ratio of CPU per request taken on its own: a change in the machine's load
 * between two long rounds had moved the cost by ±9 %, while within a pair both sides meet nearly
 * the same load. The median pair is the measure.
 */
async function metricsCostPairs(on: Route, off: Route, quick: boolean): Promise<Array<{ on: number; off: number }>> {
  const pairs = quick ? 6 : 16;
  const seconds = quick ? 1 : 2;
  const cpuPerRequest = async ({ url, headers }: Route) => {
    const before = process.cpuUsage();
    const result = await loadTest(url, { connections: CONNECTIONS, seconds, headers });
    const used = process.cpuUsage(before);
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    return (used.user + used.system) / result.requests;
  };
  const results: Array<{ on: number; off: number }> = [];
  for (let pair = 0; pair < pairs; pair++) {
    if (pair % 2 === 0) {
      const withMetrics = await cpuPerRequest(on);
      results.push({ on: withMetrics, off: await cpuPerRequest(off) });
    } else {
      const withoutMetrics = await cpuPerRequest(off);
      results.push({ on: await cpuPerRequest(on), off: withoutMetrics });
    }
  }
  return results;
}

async function createUser(url: string, rootToken: string): Promise<{ user: any; token: string }> {
  const password = 'benchpassword';
  const user = await apiCall(url, rootToken, 'POST', '/users', {
    email: 'bench@example.com',
    password,
    name: 'Bench User',
    username: 'bench',
    confirm: false,
  });
  // The private token comes from signing in, as a client gets it.
  const session = await apiCall(url, '', 'POST', '/session', { login: 'bench', password });
  return { user, token: session.private_token };
}

export const userBench: Benchmark = {
  name: 'user',
  description: 'GET /api/v3/user throughput and latency beside a bare Fastify route',
  run,
};
