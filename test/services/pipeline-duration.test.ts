import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pipelineDuration, unionLength } from '../../src/services/ci/pipelines/duration';
import { pipelineEventTarget } from '../../src/services/ci/pipelines/status';

const span = (start: number, end: number) => ({ start, end });

describe('the union of intervals', () => {
  test('nothing lasts nothing', () => {
    assert.equal(unionLength([]), 0);
  });

  test('disjoint intervals add up and the gap between them does not count', () => {
    assert.equal(unionLength([span(1, 3), span(6, 7)]), 3);
  });

  test('overlapping intervals count their common time once (GitLab’s A(1,3) B(2,4) C(6,7) is 4)', () => {
    assert.equal(unionLength([span(1, 3), span(2, 4), span(6, 7)]), 4);
  });

  test('an interval inside another adds nothing', () => {
    assert.equal(unionLength([span(1, 10), span(2, 4)]), 9);
  });

  test('intervals that touch merge, and the order they come in does not matter', () => {
    assert.equal(unionLength([span(6, 7), span(3, 6), span(1, 3)]), 6);
  });

  test('the input is left as it was', () => {
    const input = [span(2, 4), span(1, 3)];
    unionLength(input);
    assert.deepEqual(input, [span(2, 4), span(1, 3)]);
  });
});

describe('pipeline duration', () => {
  const at = (seconds: number) => new Date(Date.UTC(2016, 8, 22, 10, 0, 0) + seconds * 1000).toISOString();
  const build = (status: string, start: number | null, finish: number | null) => ({
    status,
    started_at: start === null ? null : at(start),
    finished_at: finish === null ? null : at(finish),
  });

  test('is the time during which at least one build ran, in whole seconds', () => {
    assert.equal(pipelineDuration([build('success', 0, 30), build('success', 20, 50), build('failed', 100, 110)], at(200)), 60);
  });

  test('counts a running build until now', () => {
    assert.equal(pipelineDuration([build('success', 0, 10), build('running', 5, null)], at(42)), 42);
  });

  test('counts success, failed, running and canceled builds only, and only those that started', () => {
    const builds = [
      build('canceled', 0, 5),
      build('pending', 10, null),
      build('skipped', 20, 30),
      build('created', null, null),
      build('failed', null, 40),
    ];
    assert.equal(pipelineDuration(builds, at(100)), 5);
  });

  test('truncates a fraction of a second, as Rails stores a float in an integer column', () => {
    const builds = [{ status: 'success', started_at: at(0), finished_at: new Date(Date.parse(at(9)) + 999).toISOString() }];
    assert.equal(pipelineDuration(builds, at(100)), 9);
  });

  test('is 0 without any build that ran', () => {
    assert.equal(pipelineDuration([], at(0)), 0);
    assert.equal(pipelineDuration([build('pending', null, null)], at(0)), 0);
  });
});

describe('pipeline events', () => {
  test('created fires nothing', () => {
    for (const from of ['created', 'pending', 'running', 'success']) assert.equal(pipelineEventTarget(from, 'created'), undefined);
  });

  test('enqueue moves created and an ended pipeline to pending (the spec; 8.12 reopened it as running), and nothing else', () => {
    assert.equal(pipelineEventTarget('created', 'pending'), 'pending');
    for (const from of ['success', 'failed', 'canceled', 'skipped']) assert.equal(pipelineEventTarget(from, 'pending'), 'pending');
    assert.equal(pipelineEventTarget('pending', 'pending'), undefined);
    assert.equal(pipelineEventTarget('running', 'pending'), undefined);
  });

  test('run, succeed, drop, cancel and skip apply from any state, their own included (a loopback)', () => {
    for (const to of ['running', 'success', 'failed', 'canceled', 'skipped'] as const) {
      for (const from of ['created', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped'])
        assert.equal(pipelineEventTarget(from, to), to);
    }
  });
});
