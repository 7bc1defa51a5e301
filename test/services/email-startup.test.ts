import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { startApp } from '../support/app';
import { loadConfig } from '../../src/config';

/** The log lines of a server started with `env`, up to the end of its start. */
async function startLog(env: Record<string, string>): Promise<string[]> {
  const lines: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  const app = await startApp(env, stream);
  await app.close();
  return lines.map((line) => JSON.parse(line).msg as string);
}

describe('e-mail at start', () => {
  test('without SMTP_URL, says once that e-mail is off', async () => {
    const messages = await startLog({});
    assert.equal(messages.filter((msg) => /e-mail is off: set SMTP_URL/.test(msg)).length, 1, messages.join('\n'));
  });

  test('with SMTP_URL, names the server and the sender, never the password', async () => {
    const messages = await startLog({ SMTP_URL: 'smtp://mailer:hunter2@127.0.0.1:2525', EMAIL_FROM: 'noreply@forge.example' });
    const line = messages.find((msg) => msg.startsWith('e-mail:'));
    assert.equal(line, 'e-mail: notifications are sent through smtp://127.0.0.1:2525 from noreply@forge.example');
    assert.ok(!messages.some((msg) => msg.includes('hunter2')));
  });

  test('an SMTP_URL that is not smtp:// or smtps:// is refused; the sender defaults to forge@ the external host', () => {
    assert.throws(() => loadConfig({ SMTP_URL: 'http://mail.example' }), /SMTP_URL must start with smtp:\/\/ or smtps:\/\//);
    assert.throws(() => loadConfig({ SMTP_URL: 'not a url' }), /SMTP_URL is not a URL/);
    assert.equal(loadConfig({ EXTERNAL_URL: 'https://code.example.org' }).emailFrom, 'forge@code.example.org');
  });
});
