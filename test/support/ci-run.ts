import assert from 'node:assert/strict';
import type { RunnerClient } from './runner-client';

/**
 * Runs the next build the runner is given to its end, as gitlab-ci-multi-runner 1.6 would: running,
 * a trace, artifacts when given, then the final state. Answers the build's id.
 */
export async function runNextBuild(
  runner: RunnerClient,
  outcome: { state: 'success' | 'failed'; trace?: string; artifacts?: Buffer },
): Promise<number> {
  const request = await runner.requestBuild();
  assert.equal(request.outcome, 'build', 'the runner was given no build');
  if (request.outcome !== 'build') throw new Error('no build');
  const build = request.build;
  assert.equal((await runner.updateState(build, 'running')).status, 200);
  if (outcome.trace) assert.equal((await runner.appendTrace(build, outcome.trace)).status, 202);
  if (outcome.artifacts) assert.equal((await runner.uploadArtifacts(build, outcome.artifacts)).status, 201);
  assert.equal((await runner.finish(build, outcome.state)).status, 200);
  return build.id;
}
