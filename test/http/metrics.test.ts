import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { loadConfig, ConfigError } from '../../src/config';
import { startApp, type TestApp } from '../support/app';
import { createProject } from '../support/create';
import { eventually } from '../support/eventually';
import { seedPipeline, seedRunner } from '../support/ci';

/** The value of one sample (`name{labels}` exactly as printed), or undefined when the scrape has none. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((row) => row.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function scrape(app: TestApp, init: { query?: string; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${app.url}/-/metrics${init.query ?? ''}`, { headers: init.headers });
  return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
}

const USER_OK = 'forge_http_request_duration_seconds_count{method="GET",route="/api/v3/user",status_code="200"}';

describe('GET /-/metrics', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp();
  });
  after(() => app.close());

  test("answers Prometheus' text format to a caller on loopback", async () => {
    const { status, contentType, text } = await scrape(app);
    assert.equal(status, 200);
    assert.match(contentType ?? '', /^text\/plain; version=0\.0\.4/);
    assert.match(text, /^# TYPE forge_http_request_duration_seconds histogram$/m);
  });

  test('requests are counted by route template and status, with their time', async () => {
    const before = sample((await scrape(app)).text, USER_OK) ?? 0;
    for (let i = 0; i < 3; i++) assert.equal((await app.root.get('/user')).status, 200);
    const { text } = await scrape(app);
    assert.equal(sample(text, USER_OK), before + 3);
    const sum = sample(text, USER_OK.replace('_count', '_sum'));
    assert.ok(sum !== undefined && sum > 0, 'the time of the requests is summed');
    assert.ok((sample(text, USER_OK.replace('_count{', '_bucket{le="+Inf",')) ?? 0) >= 3, 'the latency histogram has the requests');
  });

  test('the route template, never the raw URL, names a request', async () => {
    assert.equal((await app.root.get('/projects/987654321')).status, 404);
    assert.equal((await app.root.get('/projects/987654321/issues/55501')).status, 404);
    // No route of any door: under `/-/` the web door answers its own 404 page now.
    assert.equal((await app.anonymous.get('/api/v4/no-such-page-4242')).status, 404);
    const { text } = await scrape(app);
    assert.ok(
      (sample(text, 'forge_http_request_duration_seconds_count{method="GET",route="/api/v3/projects/:id",status_code="404"}') ?? 0) >= 1,
    );
    assert.ok(
      (sample(
        text,
        'forge_http_request_duration_seconds_count{method="GET",route="/api/v3/projects/:id/issues/:issue_id",status_code="404"}',
      ) ?? 0) >= 1,
      text
        .split('\n')
        .filter((line) => line.includes('issues'))
        .join('\n'),
    );
    assert.ok((sample(text, 'forge_http_request_duration_seconds_count{method="GET",route="unmatched",status_code="404"}') ?? 0) >= 1);
    for (const raw of ['987654321', '55501', 'no-such-page-4242']) assert.ok(!text.includes(raw), `${raw} appears in the metrics`);
  });

  test('statements, jobs, CI, git pools, SSH and the process are reported', async () => {
    const { text } = await scrape(app);
    assert.ok((sample(text, 'forge_db_statement_duration_seconds_count') ?? 0) > 0);
    assert.equal(sample(text, 'forge_jobs_oldest_queued_age_seconds'), 0);
    assert.equal(sample(text, 'forge_ci_builds{status="pending"}'), 0);
    assert.equal(sample(text, 'forge_ci_builds{status="running"}'), 0);
    assert.equal(sample(text, 'forge_ci_runners_online'), 0);
    assert.notEqual(sample(text, 'forge_git_pool_processes{pool="cat-file"}'), undefined);
    assert.notEqual(sample(text, 'forge_git_pool_waits_total{pool="diff-tree"}'), undefined);
    assert.equal(sample(text, 'forge_ssh_sessions'), 0);
    assert.ok((sample(text, 'process_resident_memory_bytes') ?? 0) > 0);
    assert.notEqual(sample(text, 'nodejs_eventloop_lag_seconds'), undefined);
    if (app.databaseUrl) assert.notEqual(sample(text, 'forge_db_pool_connections{pool="shared",state="open"}'), undefined);
  });

  test("a job's run is counted by kind and outcome once it ran", async () => {
    const series = 'forge_job_run_duration_seconds_count{kind="repository.remove",outcome="completed"}';
    const before = sample((await scrape(app)).text, series) ?? 0;
    const project = await createProject(app.root, { name: 'doomed' });
    assert.equal((await app.root.delete(`/projects/${project.id}`)).status, 200);
    await eventually(async () => sample((await scrape(app)).text, series) === before + 1, { message: 'the removal job counted' });
  });

  test('jobs are counted by kind and state on each scrape', async () => {
    const time = new Date().toISOString();
    const row = { payload: '{}', attempts: 1, max_attempts: 1, created_at: time, last_error: 'boom' };
    await app.ctx.db
      .insertInto('jobs')
      .values([
        // Given up (as JobQueue.fail parks it), and waiting a day for its retry.
        { ...row, kind: 'metrics.test', run_at: time, locked_at: '9999-12-31T00:00:00.000Z', locked_by: 'failed' },
        { ...row, kind: 'metrics.test', run_at: new Date(Date.now() + 86_400_000).toISOString(), locked_at: null, locked_by: null },
      ])
      .execute();
    const { text } = await scrape(app);
    assert.equal(sample(text, 'forge_jobs{kind="metrics.test",state="failed"}'), 1);
    assert.equal(sample(text, 'forge_jobs{kind="metrics.test",state="scheduled"}'), 1);
    assert.equal(sample(text, 'forge_jobs{kind="metrics.test",state="queued"}'), 0);
    assert.equal(sample(text, 'forge_jobs{kind="metrics.test",state="running"}'), 0);
    assert.equal(sample(text, 'forge_jobs_oldest_queued_age_seconds'), 0);
  });

  test('builds pending and running, and runners online, are read on each scrape', async () => {
    const project = await createProject(app.root, { name: 'ci-counted' });
    await seedPipeline(app, project.id, {
      sha: 'a'.repeat(40),
      builds: [
        { name: 'one', status: 'pending' },
        { name: 'two', status: 'pending' },
        { name: 'three', status: 'running' },
        { name: 'done', status: 'success' },
        // A status posted from outside is no build a runner takes.
        { name: 'external', status: 'pending', type: 'GenericCommitStatus' },
      ],
    });
    const contact = async (runner: number, hoursAgo: number) =>
      app.ctx.db
        .updateTable('ci_runners')
        .set({ contacted_at: new Date(Date.now() - hoursAgo * 3_600_000).toISOString() })
        .where('id', '=', runner)
        .execute();
    await contact(await seedRunner(app), 0.5);
    await contact(await seedRunner(app), 3);
    await seedRunner(app);
    const { text } = await scrape(app);
    assert.equal(sample(text, 'forge_ci_builds{status="pending"}'), 2);
    assert.equal(sample(text, 'forge_ci_builds{status="running"}'), 1);
    assert.equal(sample(text, 'forge_ci_runners_online'), 1);
  });
});

describe('who may read /-/metrics', () => {
  test('by default, a caller off loopback is answered 404; X-Forwarded-For changes nothing', async () => {
    // This test's requests come from loopback: an allow-list without it stands for a caller off it.
    const app = await startApp({ METRICS_ALLOW: '10.0.0.0/8' });
    try {
      for (const headers of [{}, { 'x-forwarded-for': '10.1.2.3' }, { 'x-real-ip': '127.0.0.1' }] as Record<string, string>[]) {
        const refused = await scrape(app, { headers });
        assert.equal(refused.status, 404);
        assert.deepEqual(JSON.parse(refused.text), { message: '404 Not Found' });
      }
      // Nor does another method tell the page exists (a 405 would).
      for (const method of ['POST', 'DELETE', 'OPTIONS'])
        assert.equal((await fetch(`${app.url}/-/metrics`, { method })).status, 404, method);
    } finally {
      await app.close();
    }
  });

  test('METRICS_TOKEN lets in a caller presenting it, as a bearer token or ?token=; a wrong one is answered 404', async () => {
    const app = await startApp({ METRICS_ALLOW: 'none', METRICS_TOKEN: 'scrape-secret-77' });
    try {
      assert.equal((await scrape(app)).status, 404);
      assert.equal((await scrape(app, { headers: { authorization: 'Bearer wrong-secret' } })).status, 404);
      assert.equal((await scrape(app, { query: '?token=scrape-secret-7' })).status, 404);
      assert.equal((await scrape(app, { headers: { authorization: 'Bearer scrape-secret-77' } })).status, 200);
      assert.equal((await scrape(app, { query: '?token=scrape-secret-77' })).status, 200);
    } finally {
      await app.close();
    }
  });

  test('an address on METRICS_ALLOW needs no token', async () => {
    const app = await startApp({ METRICS_ALLOW: '192.168.0.0/16, 127.0.0.1', METRICS_TOKEN: 'not-needed-here' });
    try {
      assert.equal((await scrape(app)).status, 200);
    } finally {
      await app.close();
    }
  });

  test('METRICS_ENABLED=false: no page, from loopback either', async () => {
    const app = await startApp({ METRICS_ENABLED: 'false' });
    try {
      assert.equal((await scrape(app)).status, 404);
      assert.equal((await app.root.get('/user')).status, 200);
    } finally {
      await app.close();
    }
  });

  test('a METRICS_ALLOW entry that is no address or range stops the start with a clear message', () => {
    for (const value of ['localhost', '10.0.0.0/33', '::1/129', '10.0.0.1/8/2']) {
      assert.throws(
        () => loadConfig({ METRICS_ALLOW: value }),
        (error: Error) => error instanceof ConfigError && error.message.includes('METRICS_ALLOW'),
        value,
      );
    }
    assert.deepEqual(loadConfig({}).metricsAllow, ['127.0.0.0/8', '::1']);
  });

  test('the metrics token is never logged', async () => {
    const lines: string[] = [];
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
    const app = await startApp({ METRICS_TOKEN: 'log-me-not-31' }, stream);
    try {
      assert.equal((await scrape(app, { query: '?token=log-me-not-31' })).status, 200);
    } finally {
      await app.close();
    }
    assert.ok(lines.join('').includes('/-/metrics'), 'the scrape is logged');
    assert.ok(!lines.join('').includes('log-me-not-31'));
  });
});

test('two apps in one process count their own requests', async () => {
  const [first, second] = [await startApp(), await startApp()];
  try {
    for (let i = 0; i < 2; i++) await first.root.get('/user');
    assert.equal(sample((await scrape(first)).text, USER_OK), 2);
    assert.equal(sample((await scrape(second)).text, USER_OK), undefined);
  } finally {
    await first.close();
    await second.close();
  }
});
