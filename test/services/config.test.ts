import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig, settleListeningPort, settleSshPort } from '../../src/config';

test('settings: defaults, and clear errors for values that cannot work', () => {
  const config = loadConfig({});
  assert.deepEqual([config.port, config.externalUrl, config.hookTimeoutMs], [8080, 'http://localhost:8080', 10000]);
  assert.equal(loadConfig({ HOOK_TIMEOUT_MS: '240000' }).hookTimeoutMs, 240000);
  for (const [env, message] of [
    [{ PORT: 'eighty' }, /PORT must be a non-negative integer/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must start with postgres:\/\//],
    [{ EXTERNAL_URL: 'not a url' }, /EXTERNAL_URL is not a URL/],
    [{ HOOK_TIMEOUT_MS: '600000' }, /HOOK_TIMEOUT_MS must be at most 240000/],
  ] as const) {
    assert.throws(
      () => loadConfig(env),
      (error: unknown) => error instanceof ConfigError && message.test(error.message),
    );
  }
});

test('PORT=0: the port chosen at listen settles an external URL naming port 0, and only such a one', () => {
  const defaulted = loadConfig({ PORT: '0' });
  settleListeningPort(defaulted, 43121);
  assert.deepEqual([defaulted.port, defaulted.externalUrl], [43121, 'http://localhost:43121']);

  const loopback = loadConfig({ PORT: '0', EXTERNAL_URL: 'http://127.0.0.1:0/forge/' });
  settleListeningPort(loopback, 43122);
  assert.equal(loopback.externalUrl, 'http://127.0.0.1:43122/forge');

  const fixed = loadConfig({ PORT: '0', EXTERNAL_URL: 'https://forge.example.com' });
  settleListeningPort(fixed, 43123);
  assert.deepEqual([fixed.port, fixed.externalUrl], [43123, 'https://forge.example.com']);

  const chosen = loadConfig({ PORT: '8081' });
  settleListeningPort(chosen, 8081);
  assert.deepEqual([chosen.port, chosen.externalUrl], [8081, 'http://localhost:8081']);
});

test('SSH_PORT: 2222 by default, 0 turns SSH off, `any` is settled to the port the SSH server was given', () => {
  assert.deepEqual([loadConfig({}).sshPort, loadConfig({}).sshHost], [2222, '']);
  assert.equal(loadConfig({ SSH_PORT: '0' }).sshPort, null);
  assert.equal(loadConfig({ SSH_PORT: '22', SSH_HOST: 'git.example.com' }).sshHost, 'git.example.com');
  const any = loadConfig({ SSH_PORT: 'any' });
  assert.equal(any.sshPort, 0);
  settleSshPort(any, 40022);
  assert.equal(any.sshPort, 40022);
  for (const value of ['70000', 'ssh', '-1']) {
    assert.throws(
      () => loadConfig({ SSH_PORT: value }),
      (error: unknown) => error instanceof ConfigError && /SSH_PORT must be/.test(error.message),
    );
  }
});
