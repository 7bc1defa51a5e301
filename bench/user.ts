import Fastify from 'fastify';
import type { Benchmark, BenchOptions, TargetCheck } from './support/types';
import { databaseKind, startBenchApp } from './support/app';
import { apiCall } from './support/http';
import { loadTest, type LoadResult } from './support/autocannon';
import { table } from './support/stats';

const CONNECTIONS = 10;
const SHARE_TARGET = 0.5;

/** GET /api/v3/user with a private token, beside a bare Fastify route answering the same JSON. */
async function run({ quick }: BenchOptions): Promise<TargetCheck[]> {
  const rounds = quick ? 1 : 2;
  const seconds = quick ? 3 : 5;
  const warmup = quick ? 1 : 2;
  const app = await startBenchApp();
  const bare = Fastify({ logger: false });
  try {
    const { user, token } = await createUser(app.url, app.rootToken);
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
      // Not a target: what Forge's request pipeline costs on a route with no database and no authentication.
      { name: 'Forge GET /-/health (for reference)', db: 'none', url: `${app.url}/-/health` },
    ];
    for (const { url, headers } of targets) await loadTest(url, { connections: CONNECTIONS, seconds: warmup, headers });
    // Rounds alternate the routes, and each keeps its best round: other load on the machine slows one round, not all.
    const best: LoadResult[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const [i, { url, headers }] of targets.entries()) {
        const result = await loadTest(url, { connections: CONNECTIONS, seconds, headers });
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
        if (!best[i] || result.requestsPerSecond > best[i].requestsPerSecond) best[i] = result;
      }
    }
    const [forge, baseline] = best;

    console.log(
      `autocannon in its own process, ${CONNECTIONS} connections; best of ${rounds} round(s) of ${seconds} s per route after ${warmup} s of warm-up; latencies in whole ms`,
    );
    console.log(
      table(
        ['route', 'database', 'req/s', 'of bare', 'mean', 'p50', 'p99', 'requests'],
        targets.map(({ name, db }, i) => {
          const r = best[i];
          return [
            name,
            db,
            `${Math.round(r.requestsPerSecond)} req/s`,
            `${((r.requestsPerSecond / baseline.requestsPerSecond) * 100).toFixed(0)}%`,
            `${r.mean.toFixed(2)} ms`,
            `${r.p50} ms`,
            `${r.p99} ms`,
            String(r.requests),
          ];
        }),
      ),
    );
    const share = forge.requestsPerSecond / baseline.requestsPerSecond;
    return [
      {
        bench: 'user',
        label: `GET /api/v3/user throughput vs bare Fastify (p50 ${forge.p50} ms, p99 ${forge.p99} ms)`,
        value: `${Math.round(forge.requestsPerSecond)} vs ${Math.round(baseline.requestsPerSecond)} req/s = ${(share * 100).toFixed(0)}%`,
        target: `≥ ${SHARE_TARGET * 100}%`,
        status: share >= SHARE_TARGET ? 'meets' : 'misses',
      },
    ];
  } finally {
    await bare.close();
    await app.close();
  }
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
