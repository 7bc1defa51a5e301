import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { combinedStatus, fire } from '../../src/services/ci/pipelines/status';

const builds = (...specs: string[]) =>
  specs.map((spec) => ({ status: spec.replace(/\*$/, ''), allow_failure: spec.endsWith('*') ? 1 : 0 }));

describe('combined status of a set of builds', () => {
  const cases: Array<[string[], string]> = [
    [[], 'created'],
    [['created', 'created'], 'created'],
    [['skipped', 'skipped'], 'skipped'],
    [['success', 'skipped'], 'success'],
    [['success', 'failed*'], 'success'],
    [['success', 'canceled*', 'skipped'], 'success'],
    [['created', 'pending', 'skipped'], 'pending'],
    [['pending'], 'pending'],
    [['canceled', 'success', 'failed*'], 'canceled'],
    [['canceled', 'canceled*'], 'canceled'],
    [['running', 'success'], 'running'],
    [['created', 'success'], 'running'],
    [['pending', 'failed'], 'running'],
    [['failed', 'success'], 'failed'],
    [['failed', 'canceled'], 'failed'],
  ];
  for (const [specs, expected] of cases) {
    test(`[${specs.join(', ')}] is ${expected} (* allowed to fail)`, () => {
      assert.equal(combinedStatus(builds(...specs)), expected);
    });
  }
});

describe('status transitions', () => {
  const record = (status: string) => ({ status, queued_at: null, started_at: null, finished_at: null });

  test('enqueue leaves created or skipped for pending and stamps queued_at when leaving created', () => {
    assert.deepEqual(fire(record('created'), 'enqueue', 'T'), { status: 'pending', queued_at: 'T', started_at: null, finished_at: null });
    assert.deepEqual(fire(record('skipped'), 'enqueue', 'T'), { status: 'pending', queued_at: null, started_at: null, finished_at: null });
    assert.equal(fire(record('pending'), 'enqueue', 'T'), undefined);
  });

  test('run goes from pending to running and stamps started_at', () => {
    assert.deepEqual(fire(record('pending'), 'run', 'T'), { status: 'running', queued_at: null, started_at: 'T', finished_at: null });
    assert.equal(fire(record('created'), 'run', 'T'), undefined);
  });

  test('success, drop and cancel end created, pending and running statuses and stamp finished_at', () => {
    for (const from of ['created', 'pending', 'running']) {
      assert.deepEqual(fire(record(from), 'success', 'T'), { ...record('success'), finished_at: 'T' });
      assert.equal(fire(record(from), 'drop', 'T')?.status, 'failed');
      assert.equal(fire(record(from), 'cancel', 'T')?.status, 'canceled');
    }
    for (const from of ['success', 'failed', 'canceled', 'skipped']) assert.equal(fire(record(from), 'success', 'T'), undefined);
  });
});
