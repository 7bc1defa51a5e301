import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { runForge } from '../support/forge-command';
import { MailServer } from '../support/mail-server';

/* `forge admin check`'s SMTP line, against a real SMTP server on loopback and against none. */

let app: TestApp;
let mail: MailServer;

before(async () => {
  mail = await MailServer.start();
  app = await startApp({ SMTP_URL: mail.url });
});
after(async () => {
  await app.close();
  await mail.stop();
});

const check = (smtpUrl: string) =>
  runForge(['admin', 'check'], { DATA_DIR: app.dataDir, DATABASE_URL: app.databaseUrl, SMTP_URL: smtpUrl });

describe('forge admin check: SMTP', () => {
  test('is ok when the SMTP server of SMTP_URL answers, and shows no password', async () => {
    const result = await check(mail.url);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, new RegExp(`^ok +SMTP: smtp://127\\.0\\.0\\.1:${mail.port} reachable`, 'm'));
    assert.doesNotMatch(result.stdout, /forge:secret@/);
  });

  test('fails, exit 1, when nothing listens there', async () => {
    await mail.stop();
    try {
      const result = await check(mail.url);
      assert.equal(result.code, 1);
      assert.match(result.stdout, /^FAIL +SMTP: smtp:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/m);
    } finally {
      await mail.listen();
    }
  });
});
