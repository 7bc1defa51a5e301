import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { startApp } from '../support/app';

test('request logs name the user id and never carry the private token', async () => {
  const lines: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  const app = await startApp({}, stream);
  try {
    await app.anonymous.get('/user', { private_token: app.rootToken });
    await app.root.get('/user');
  } finally {
    await app.close();
  }
  const records = lines.map((line) => JSON.parse(line));
  const completed = records.filter((record) => record.msg === 'request completed' && record.res?.statusCode === 200);
  assert.equal(completed.length, 2);
  for (const record of completed) assert.equal(record.userId, 1);
  assert.ok(!lines.some((line) => line.includes(app.rootToken)), 'a log line holds the token');
});
