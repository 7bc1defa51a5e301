import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config';

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
    assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && message.test(error.message));
  }
});
