import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { startApp, type TestApp } from '../support/app';

/** Starts a server that logs into memory, makes `requests` against it, stops it, and gives back every line it logged. */
async function logOf(requests: (app: TestApp) => Promise<unknown>): Promise<{ app: TestApp; lines: string[] }> {
  const lines: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  const app = await startApp({}, stream);
  try {
    await requests(app);
  } finally {
    await app.close();
  }
  return { app, lines };
}

test('request logs name the user id and never carry the private token', async () => {
  const { app, lines } = await logOf(async (app) => {
    await app.anonymous.get('/user', { private_token: app.rootToken });
    await app.root.get('/user');
  });
  const records = lines.map((line) => JSON.parse(line));
  const completed = records.filter((record) => record.msg === 'request completed' && record.res?.statusCode === 200);
  assert.equal(completed.length, 2);
  for (const record of completed) assert.equal(record.userId, 1);
  assert.ok(!lines.some((line) => line.includes(app.rootToken)), 'a log line holds the token');
});

test('each request is logged once at info, with method, url, status, response time and user id; its arrival only at debug', async () => {
  const { lines } = await logOf(async (app) => {
    await app.root.get('/user');
    await app.anonymous.get('/projects/404');
  });
  const INFO = 30;
  const records = lines.map((line) => JSON.parse(line)).filter((record) => record.reqId !== undefined);
  const byRequest = new Map<string, any[]>();
  for (const record of records) byRequest.set(record.reqId, [...(byRequest.get(record.reqId) ?? []), record]);
  assert.equal(byRequest.size, 2);
  for (const [, lines] of byRequest) assert.equal(lines.filter((record) => record.level === INFO).length, 1, JSON.stringify(lines));
  const [user, anonymous] = [...byRequest.values()].map((lines) => lines.find((record) => record.level === INFO));
  assert.equal(user.req.method, 'GET');
  assert.equal(user.req.url, '/api/v3/user');
  assert.equal(user.res.statusCode, 200);
  assert.equal(typeof user.responseTime, 'number');
  assert.equal(user.userId, 1);
  assert.equal(anonymous.res.statusCode, 401);
  assert.equal(anonymous.userId, undefined);
});
