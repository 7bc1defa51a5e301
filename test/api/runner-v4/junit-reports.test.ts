import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { startApp, type TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';
import { storedZip } from '../../support/zip';
import { WebClient } from '../../support/web';
import { pythonGitlab, pythonGitlabMissing } from '../../support/python-gitlab';
import type { RunnerV4Client, V4Job } from '../../support/runner-v4-client';
import { projectRunner, pushedProject } from './world';
import { removeExpiredArtifacts } from '../../../src/services/ci/builds/artifacts-expiry';

/*
 * Issue 25's `artifacts: reports: junit`: a v4 runner uploads each job's JUnit report (gzip, as
 * gitlab-runner does, or raw XML), Forge keeps it with the job's artifacts, and the pipeline's test
 * report (GitLab 12.5+) and its summary (14+) show it; the job's page says how its tests went.
 */
const CONFIG = `
unit:
  script: make test
  artifacts:
    paths: [out/]
    reports:
      junit: report.xml
integration:
  script: make it
  artifacts:
    reports:
      junit: [report.xml]
`;

const UNIT_REPORT = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="math" tests="4">
    <testcase classname="MathTest" name="adds" file="test/math.js" time="0.5"><system-out>2 + 2 = 4</system-out></testcase>
    <testcase classname="MathTest" name="subtracts" time="0.25"/>
    <testcase classname="MathTest" name="divides by zero" file="test/math.js" time="1.25">
      <failure message="expected Infinity">AssertionError: expected NaN to equal Infinity
    at test/math.js:12</failure>
    </testcase>
    <testcase classname="MathTest" name="later" time="0"><skipped message="not yet"/></testcase>
  </testsuite>
</testsuites>`;

const INTEGRATION_REPORT = `<testsuite name="api">
  <testcase classname="Api" name="health" time="2"/>
  <testcase classname="Api" name="database" time="3"><error message="connection refused"/></testcase>
</testsuite>`;

let app: TestApp;

before(async () => {
  app = await startApp({ RUNNER_POLL_TIMEOUT_MS: '300' });
});
after(async () => {
  await app.close();
});

async function take(runner: RunnerV4Client, name: string): Promise<V4Job> {
  const answer = await runner.requestJob();
  if (answer.outcome !== 'job') return assert.fail(`expected ${name}, the runner got ${answer.outcome}`);
  assert.equal(answer.job.payload.job_info.name, name);
  return answer.job;
}

/** A project whose push made a pipeline of `CONFIG`, its own runner, and the pipeline's id. */
async function pipelineWithReports(name: string) {
  const project = await pushedProject(app, name);
  const runner = await projectRunner(app, project.id);
  await project.push({ '.gitlab-ci.yml': CONFIG });
  const api = app.root.v4();
  const pipelineId = await eventually(async () => (await api.get(`/projects/${project.id}/pipelines`)).body[0]?.id as number | undefined, {
    message: 'the pipeline of the push',
  });
  return { project, runner, pipelineId, api };
}

describe('POST /jobs/:id/artifacts?artifact_type=junit', () => {
  test('the reports of two jobs are stored and add up in the pipeline test report and its summary', async () => {
    const { project, runner, pipelineId, api } = await pipelineWithReports('junit-two-jobs');
    const unit = await take(runner, 'unit');
    const junit = unit.payload.artifacts.find((artifact: any) => artifact.artifact_type === 'junit');
    assert.deepEqual([junit.name, junit.artifact_format, junit.paths], ['junit.xml.gz', 'gzip', ['report.xml']]);

    const uploaded = await runner.uploadArtifacts(unit, gzipSync(UNIT_REPORT), { type: 'junit', format: 'gzip' });
    assert.equal(uploaded.status, 201, uploaded.text);
    const archive = await storedZip({ 'out/a.txt': 'a' });
    assert.equal((await runner.uploadArtifacts(unit, archive)).status, 201);
    assert.equal((await runner.finish(unit, 'failed', { failureReason: 'script_failure', exitCode: 1 })).status, 200);

    let report = await api.get(`/projects/${project.id}/pipelines/${pipelineId}/test_report`);
    assert.equal(report.status, 200, report.text);
    assert.deepEqual(
      [report.body.total_count, report.body.success_count, report.body.failed_count, report.body.skipped_count, report.body.error_count],
      [4, 2, 1, 1, 0],
    );
    assert.equal(report.body.total_time, 2);
    assert.equal(report.body.test_suites.length, 1);
    const suite = report.body.test_suites[0];
    assert.equal(suite.name, 'unit');
    assert.equal(suite.suite_error, null);
    // Failures first, then the rest in the report's order.
    assert.deepEqual(
      suite.test_cases.map((testCase: any) => [testCase.status, testCase.name]),
      [
        ['failed', 'divides by zero'],
        ['success', 'adds'],
        ['success', 'subtracts'],
        ['skipped', 'later'],
      ],
    );
    assert.deepEqual(suite.test_cases[0], {
      status: 'failed',
      name: 'divides by zero',
      classname: 'MathTest',
      file: 'test/math.js',
      execution_time: 1.25,
      system_output: 'AssertionError: expected NaN to equal Infinity\n    at test/math.js:12',
      stack_trace: null,
    });
    assert.equal(suite.test_cases[1].system_output, '2 + 2 = 4');
    assert.equal(suite.test_cases[3].system_output, 'not yet');

    // The second job sends its report as raw XML.
    const integration = await take(runner, 'integration');
    const raw = await runner.uploadArtifacts(integration, Buffer.from(INTEGRATION_REPORT), { type: 'junit', format: 'raw' });
    assert.equal(raw.status, 201, raw.text);
    assert.equal((await runner.finish(integration, 'success')).status, 200);

    report = await api.get(`/projects/${project.id}/pipelines/${pipelineId}/test_report`);
    assert.deepEqual(
      [report.body.total_count, report.body.success_count, report.body.failed_count, report.body.skipped_count, report.body.error_count],
      [6, 3, 1, 1, 1],
    );
    assert.equal(report.body.total_time, 7);
    assert.deepEqual(
      report.body.test_suites.map((s: any) => [s.name, s.total_count, s.error_count, s.total_time]),
      [
        ['unit', 4, 0, 2],
        ['integration', 2, 1, 5],
      ],
    );

    const summary = await api.get(`/projects/${project.id}/pipelines/${pipelineId}/test_report_summary`);
    assert.equal(summary.status, 200, summary.text);
    assert.deepEqual(summary.body.total, { time: 7, count: 6, success: 3, failed: 1, skipped: 1, error: 1, suite_error: null });
    assert.deepEqual(summary.body.test_suites[1], {
      name: 'integration',
      total_time: 5,
      total_count: 2,
      success_count: 1,
      failed_count: 0,
      skipped_count: 0,
      error_count: 1,
      suite_error: null,
      build_ids: [integration.id],
    });

    if (!pythonGitlabMissing) {
      // python-gitlab 3.12's managers for both (`pipeline.test_report.get()`, `pipeline.test_report_summary.get()`).
      const seen = await pythonGitlab(
        app.url,
        app.rootToken,
        `pipeline = gl.projects.get(${project.id}).pipelines.get(${pipelineId})
print(json.dumps([pipeline.test_report.get().total_count, pipeline.test_report_summary.get().total['failed']]))`,
      );
      assert.deepEqual(seen, [6, 1]);
    }

    // The job's artifacts download is the archive, never the report.
    const download = await fetch(`${app.url}/api/v4/projects/${project.id}/jobs/${unit.id}/artifacts`, {
      headers: { 'private-token': app.rootToken },
    });
    assert.equal(download.status, 200);
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), archive);
    const noArchive = await api.get(`/projects/${project.id}/jobs/${integration.id}/artifacts`);
    assert.equal(noArchive.status, 404);

    // The job's page says how its tests went.
    const web = new WebClient(app.url);
    await web.signIn('root', 'rootpassword');
    const page = await web.get(`/${project.path}/builds/${unit.id}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /Tests: 2 passed, 1 failed, 1 skipped/);
    assert.match(page.text, /<li>MathTest divides by zero<\/li>/);
    const passing = await web.get(`/${project.path}/builds/${integration.id}`);
    assert.match(passing.text, /Tests: 1 passed, 1 failed/);
    assert.match(passing.text, /<li>Api database<\/li>/);
  });

  test('a report that is not gzip is a 400, and nothing is stored', async () => {
    const { project, runner, pipelineId, api } = await pipelineWithReports('junit-bad-gzip');
    const unit = await take(runner, 'unit');
    const bad = await runner.uploadArtifacts(unit, Buffer.from(UNIT_REPORT), { type: 'junit', format: 'gzip' });
    assert.equal(bad.status, 400, bad.text);
    assert.match(bad.body.message, /not a valid gzip file/);
    // Cut short: the gzip ends before its end.
    const truncated = await runner.uploadArtifacts(unit, gzipSync(UNIT_REPORT).subarray(0, 40), { type: 'junit', format: 'gzip' });
    assert.equal(truncated.status, 400, truncated.text);
    const zip = await runner.uploadArtifacts(unit, gzipSync(UNIT_REPORT), { type: 'junit', format: 'zip' });
    assert.equal(zip.status, 400, zip.text);
    const report = await api.get(`/projects/${project.id}/pipelines/${pipelineId}/test_report`);
    assert.deepEqual([report.body.total_count, report.body.test_suites], [0, []]);
  });

  test('a report larger than the artifacts limit is a 413, packed or unpacked', async () => {
    const small = await startApp({ RUNNER_POLL_TIMEOUT_MS: '300', MAX_ARTIFACTS_SIZE_MB: '1' });
    try {
      const project = await pushedProject(small, 'junit-too-large');
      const runner = await projectRunner(small, project.id);
      await project.push({ '.gitlab-ci.yml': CONFIG });
      const answer = await eventually(async () => {
        const next = await runner.requestJob();
        return next.outcome === 'job' ? next.job : undefined;
      });
      // 2 MiB of XML packs into a few KiB: unpacked it passes the limit (a gzip bomb in small).
      const huge = `<testsuite>${'<testcase name="x"/>'.repeat(110_000)}</testsuite>`;
      const packed = await runner.uploadArtifacts(answer, gzipSync(huge), { type: 'junit', format: 'gzip' });
      assert.equal(packed.status, 413, packed.text);
      const rawUpload = await runner.uploadArtifacts(answer, Buffer.from(huge), { type: 'junit', format: 'raw' });
      assert.equal(rawUpload.status, 413, rawUpload.text);
    } finally {
      await small.close();
    }
  });
});

describe('GET /projects/:id/pipelines/:pipeline_id/test_report', () => {
  test("a private project's report is 404 to a non-member and to the anonymous, 200 to a reporter", async () => {
    const { project, runner, pipelineId } = await pipelineWithReports('junit-private');
    const visibility = await app.root.v4().get(`/projects/${project.id}`);
    assert.equal(visibility.body.visibility, 'private');
    const unit = await take(runner, 'unit');
    assert.equal((await runner.uploadArtifacts(unit, gzipSync(UNIT_REPORT), { type: 'junit', format: 'gzip' })).status, 201);

    const stranger = await app.createUser();
    for (const path of ['test_report', 'test_report_summary']) {
      const url = `/projects/${project.id}/pipelines/${pipelineId}/${path}`;
      assert.equal((await stranger.client.v4().get(url)).status, 404, path);
      assert.equal((await app.anonymous.v4().get(url)).status, 404, path);
    }
    const reporter = await app.createUser();
    const added = await app.root.v4().post(`/projects/${project.id}/members`, { user_id: reporter.user.id, access_level: 20 });
    assert.equal(added.status, 201, added.text);
    const seen = await reporter.client.v4().get(`/projects/${project.id}/pipelines/${pipelineId}/test_report_summary`);
    assert.equal(seen.status, 200);
    assert.equal(seen.body.total.count, 4);
    // A pipeline the project does not have.
    assert.equal((await app.root.v4().get(`/projects/${project.id}/pipelines/999999/test_report`)).status, 404);
  });

  test('a report read once is read again without its file, until the job uploads another', async () => {
    const { project, runner, pipelineId, api } = await pipelineWithReports('junit-kept');
    const unit = await take(runner, 'unit');
    assert.equal((await runner.uploadArtifacts(unit, gzipSync(UNIT_REPORT), { type: 'junit', format: 'gzip' })).status, 201);
    const path = `/projects/${project.id}/pipelines/${pipelineId}/test_report`;
    const first = await api.get(path);
    assert.equal(first.body.total_count, 4);

    // The file gone behind Forge's back: the cases read before are still answered, the disk untouched.
    await app.ctx.files.delete(`builds/${project.id}/${unit.id}/junit.xml`);
    const again = await api.get(path);
    assert.deepEqual(again.body, first.body);

    const replaced = await runner.uploadArtifacts(unit, Buffer.from(INTEGRATION_REPORT), { type: 'junit', format: 'raw' });
    assert.equal(replaced.status, 201, replaced.text);
    const after = await api.get(path);
    assert.equal(after.body.total_count, 2);
    assert.deepEqual(
      after.body.test_suites[0].test_cases.map((testCase: any) => [testCase.status, testCase.name]),
      [
        ['error', 'database'],
        ['success', 'health'],
      ],
    );
  });

  test('erasing the job removes its report; a report past its expire_in is no longer shown', async () => {
    const { project, runner, pipelineId, api } = await pipelineWithReports('junit-erase');
    const unit = await take(runner, 'unit');
    assert.equal((await runner.uploadArtifacts(unit, gzipSync(UNIT_REPORT), { type: 'junit', format: 'gzip' })).status, 201);
    assert.equal((await runner.finish(unit, 'success')).status, 200);
    const integration = await take(runner, 'integration');
    const expiring = await runner.uploadArtifacts(integration, gzipSync(INTEGRATION_REPORT), {
      type: 'junit',
      format: 'gzip',
      expireIn: '1 sec',
    });
    assert.equal(expiring.status, 201);
    assert.equal((await runner.finish(integration, 'success')).status, 200);
    const unitFile = `builds/${project.id}/${unit.id}/junit.xml`;
    assert.ok(await app.ctx.files.stat(unitFile));

    const erased = await api.post(`/projects/${project.id}/jobs/${unit.id}/erase`, {});
    assert.equal(erased.status, 201, erased.text);
    assert.equal(await app.ctx.files.stat(unitFile), undefined);
    // The integration job's report expires a second after its upload: hidden at once, removed by the sweep.
    await eventually(async () => {
      const summary = await api.get(`/projects/${project.id}/pipelines/${pipelineId}/test_report_summary`);
      return summary.body.total.count === 0 && summary.body.test_suites.length === 0 ? true : undefined;
    });
    const integrationFile = `builds/${project.id}/${integration.id}/junit.xml`;
    assert.ok(await app.ctx.files.stat(integrationFile));
    await removeExpiredArtifacts(app.ctx);
    assert.equal(await app.ctx.files.stat(integrationFile), undefined);
    const job = await api.get(`/projects/${project.id}/jobs/${integration.id}`);
    assert.equal(job.status, 200);
  });
});
