/*
 * The load generator of the CI benchmark, run as a child process (`runner-load.ts` starts it) so
 * that it never shares the server's event loop: on 2 cores the server keeps one, this the other.
 * It speaks the runner protocol as gitlab-ci-multi-runner 1.6.0 does, over kept-alive connections,
 * and drives the trivial baseline (`/-/health`) with the same loops, so both numbers are comparable.
 * The plan comes as JSON in argv[2]; the result goes to stdout as one JSON line.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

export const RUNNER_USER_AGENT = 'gitlab-ci-multi-runner 1.6.0 (1-6-stable; go1.6.3; linux/amd64)';
const RUNNER_V4_USER_AGENT = 'gitlab-runner 16.11.0 (16-11-stable; go1.21.9; linux/amd64)';

export type LoadPlan =
  | {
      mode: 'register';
      url: string;
      /** One polling loop per runner token. */
      runnerTokens: string[];
      /** Stop once this many builds were handed out. */
      expected: number;
      maxSeconds: number;
    }
  | {
      mode: 'request-v4';
      url: string;
      /** One long-polling loop per runner token. */
      runnerTokens: string[];
      /** Stop once this many jobs were handed out (0: never, until `maxSeconds`). */
      expected: number;
      maxSeconds: number;
    }
  | { mode: 'trace'; url: string; builds: Array<{ id: number; token: string }>; partBytes: number; seconds: number }
  | { mode: 'health'; url: string; connections: number; seconds?: number; requests?: number };

export interface LoadReport {
  requests: number;
  /** 201 (a build), 202 (a trace part), 200 (health). */
  ok: number;
  /** 204: no build for this runner right now. */
  empty: number;
  /** Any other status, by status. */
  other: Record<string, number>;
  /** Trace bytes accepted. */
  bytes: number;
  /** From the first request to the last useful answer. */
  seconds: number;
  p50: number;
  p99: number;
  /** The first unexpected answer, to tell a missing route from a broken one. */
  firstOther?: { status: number; body: string };
}

interface Answer {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

function send(agent: http.Agent, url: string, method: string, headers: Record<string, string>, body?: string | Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('error', reject);
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text, headers: response.headers }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const nearest = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

/** Runs `loops` concurrent request loops; each loop calls `step` until it answers false. */
async function drive(
  loops: number,
  step: (loop: number, tally: (answer: Answer, useful: boolean) => void) => Promise<boolean>,
): Promise<LoadReport> {
  const report: LoadReport = { requests: 0, ok: 0, empty: 0, other: {}, bytes: 0, seconds: 0, p50: NaN, p99: NaN };
  const latencies: number[] = [];
  const started = performance.now();
  let lastUseful = started;
  await Promise.all(
    Array.from({ length: loops }, async (_, loop) => {
      for (;;) {
        const sent = performance.now();
        const more = await step(loop, (answer, useful) => {
          const now = performance.now();
          latencies.push(now - sent);
          report.requests += 1;
          if (useful) {
            report.ok += 1;
            lastUseful = now;
          } else if (answer.status === 204) report.empty += 1;
          else {
            report.other[answer.status] = (report.other[answer.status] ?? 0) + 1;
            report.firstOther ??= { status: answer.status, body: answer.body.slice(0, 300) };
          }
        });
        if (!more) return;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { ...report, seconds: (lastUseful - started) / 1000, p50: nearest(latencies, 50), p99: nearest(latencies, 99) };
}

/** Runners asking for builds, as fast as they are answered, until every build is handed out. */
function register(plan: Extract<LoadPlan, { mode: 'register' }>, agent: http.Agent): Promise<LoadReport> {
  const deadline = performance.now() + plan.maxSeconds * 1000;
  const info = { name: 'gitlab-ci-multi-runner', version: '1.6.0', revision: '01b3ea1', platform: 'linux', architecture: 'amd64' };
  const headers = { 'content-type': 'application/json', 'user-agent': RUNNER_USER_AGENT };
  let handed = 0;
  let lastHanded = performance.now();
  let failed = false;
  return drive(plan.runnerTokens.length, async (loop, tally) => {
    const answer = await send(
      agent,
      `${plan.url}/ci/api/v1/builds/register.json`,
      'POST',
      headers,
      JSON.stringify({ token: plan.runnerTokens[loop], info }),
    );
    if (answer.status === 201) {
      handed += 1;
      lastHanded = performance.now();
    }
    // 204 also answers the loser of a race for a build (GitLab 8.12 does not try the next one): poll on.
    else if (answer.status !== 204) failed = true;
    tally(answer, answer.status === 201);
    // Seconds of 204s only: the builds left are not for these runners; the report says how many were handed out.
    const stalled = performance.now() - lastHanded > 5000;
    return !failed && !stalled && handed < plan.expected && performance.now() < deadline;
  });
}

/**
 * Runners of today asking `POST /api/v4/jobs/request` as gitlab-runner does (the server holds a
 * request while nothing is pending; `X-GitLab-Last-Update` goes back as `last_update`), until
 * `expected` jobs were handed out or `maxSeconds` passed.
 */
function requestV4(plan: Extract<LoadPlan, { mode: 'request-v4' }>, agent: http.Agent): Promise<LoadReport> {
  const deadline = performance.now() + plan.maxSeconds * 1000;
  const info = { name: 'gitlab-runner', version: '16.11.0', revision: '91a27b2a', platform: 'linux', architecture: 'amd64' };
  const headers = { 'content-type': 'application/json', accept: 'application/json', 'user-agent': RUNNER_V4_USER_AGENT };
  const lastUpdates = plan.runnerTokens.map(() => '');
  let handed = 0;
  let failed = false;
  return drive(plan.runnerTokens.length, async (loop, tally) => {
    const body = JSON.stringify({ token: plan.runnerTokens[loop], info, last_update: lastUpdates[loop] });
    // A connection refused or reset (a thousand opened at once overflow the listen backlog) is
    // retried, as gitlab-runner retries a failed request; it is counted under status 0.
    const answer = await send(agent, `${plan.url}/api/v4/jobs/request`, 'POST', headers, body).catch(
      (error: Error): Answer => ({ status: 0, body: error.message, headers: {} }),
    );
    if (answer.status === 201) handed += 1;
    else if (answer.status === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    else if (answer.status === 204) lastUpdates[loop] = String(answer.headers['x-gitlab-last-update'] ?? '');
    else if (answer.status !== 0) failed = true;
    tally(answer, answer.status === 201);
    const done = plan.expected > 0 && handed >= plan.expected;
    return !failed && !done && performance.now() < deadline;
  });
}

/** Running builds appending 4 KB parts to their traces, each part after the previous one was taken. */
function trace(plan: Extract<LoadPlan, { mode: 'trace' }>, agent: http.Agent): Promise<LoadReport> {
  const line = 'Running test suite: 1234 examples, 0 failures, 17 pending ........................\n';
  const part = Buffer.from(line.repeat(Math.ceil(plan.partBytes / line.length)).slice(0, plan.partBytes));
  const offsets = plan.builds.map(() => 0);
  const deadline = performance.now() + plan.seconds * 1000;
  let failed = false;
  let bytes = 0;
  return drive(plan.builds.length, async (loop, tally) => {
    const build = plan.builds[loop];
    const start = offsets[loop];
    const answer = await send(
      agent,
      `${plan.url}/ci/api/v1/builds/${build.id}/trace.txt`,
      'PATCH',
      {
        'content-type': 'text/plain',
        'build-token': build.token,
        'content-range': `${start}-${start + part.length}`,
        'user-agent': RUNNER_USER_AGENT,
      },
      part,
    );
    if (answer.status === 202) {
      offsets[loop] += part.length;
      bytes += part.length;
    } else failed = true;
    tally(answer, answer.status === 202);
    return !failed && performance.now() < deadline;
  }).then((report) => ({ ...report, bytes }));
}

/** GET /-/health from the same number of loops, for a time or a number of requests. */
function health(plan: Extract<LoadPlan, { mode: 'health' }>, agent: http.Agent): Promise<LoadReport> {
  const deadline = performance.now() + (plan.seconds ?? Infinity) * 1000;
  let left = plan.requests ?? Infinity;
  return drive(plan.connections, async (_, tally) => {
    if (left <= 0) return false;
    left -= 1;
    const answer = await send(agent, `${plan.url}/-/health`, 'GET', {});
    tally(answer, answer.status === 200);
    return answer.status === 200 && left > 0 && performance.now() < deadline;
  });
}

async function main(): Promise<void> {
  const plan = JSON.parse(process.argv[2]) as LoadPlan;
  const connections =
    plan.mode === 'register' || plan.mode === 'request-v4'
      ? plan.runnerTokens.length
      : plan.mode === 'trace'
        ? plan.builds.length
        : plan.connections;
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const report =
    plan.mode === 'register'
      ? await register(plan, agent)
      : plan.mode === 'request-v4'
        ? await requestV4(plan, agent)
        : plan.mode === 'trace'
          ? await trace(plan, agent)
          : await health(plan, agent);
  agent.destroy();
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

// Only when run as the child process, not when imported for its types.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
