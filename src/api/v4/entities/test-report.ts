import { Type, type Static } from '@sinclair/typebox';
import type { PipelineTestReport, PipelineTestSummary, SuiteReport, SuiteSummary } from '../../../services/ci/test-reports/test-reports';
import type { TestCase, TestCounts } from '../../../services/ci/test-reports/types';
import { Nullable } from '../../shared/schemas';

/** GitLab 12.5+'s `TestCaseEntity` (without `recent_failures` and attachments, which Forge does not keep). */
export const TestCaseEntity = Type.Object({
  status: Type.String(),
  name: Type.String(),
  classname: Nullable(Type.String()),
  file: Nullable(Type.String()),
  execution_time: Type.Number(),
  system_output: Nullable(Type.String()),
  stack_trace: Nullable(Type.String()),
});

const SuiteCounts = {
  name: Type.String(),
  total_time: Type.Number(),
  total_count: Type.Integer(),
  success_count: Type.Integer(),
  failed_count: Type.Integer(),
  skipped_count: Type.Integer(),
  error_count: Type.Integer(),
  suite_error: Nullable(Type.String()),
};

/** GitLab 12.5+'s `TestSuiteEntity`: one suite per job name, its cases (none when it has a `suite_error`). */
export const TestSuiteEntity = Type.Object({ ...SuiteCounts, test_cases: Type.Array(TestCaseEntity) });

/** GitLab 12.5+'s `TestReportEntity`: `GET /projects/:id/pipelines/:pipeline_id/test_report`. */
export const TestReportEntity = Type.Object({
  total_time: Type.Number(),
  total_count: Type.Integer(),
  success_count: Type.Integer(),
  failed_count: Type.Integer(),
  skipped_count: Type.Integer(),
  error_count: Type.Integer(),
  test_suites: Type.Array(TestSuiteEntity),
});

/** GitLab 14's `TestReportSummaryEntity`: `GET /projects/:id/pipelines/:pipeline_id/test_report_summary`. */
export const TestReportSummaryEntity = Type.Object({
  total: Type.Object({
    time: Type.Number(),
    count: Type.Integer(),
    success: Type.Integer(),
    failed: Type.Integer(),
    skipped: Type.Integer(),
    error: Type.Integer(),
    suite_error: Nullable(Type.String()),
  }),
  test_suites: Type.Array(Type.Object({ ...SuiteCounts, build_ids: Type.Array(Type.Integer()) })),
});

const countsOf = (counts: TestCounts) => ({
  total_time: counts.time,
  total_count: counts.count,
  success_count: counts.success,
  failed_count: counts.failed,
  skipped_count: counts.skipped,
  error_count: counts.error,
});

const suiteCountsOf = (suite: SuiteSummary) => ({ name: suite.name, ...countsOf(suite.counts), suite_error: suite.suiteError });

function presentCase(testCase: TestCase): Static<typeof TestCaseEntity> {
  return {
    status: testCase.status,
    // GitLab's entity shows a nameless case as "(No name)".
    name: testCase.name ?? '(No name)',
    classname: testCase.classname,
    file: testCase.file,
    execution_time: testCase.execution_time,
    system_output: testCase.system_output,
    // GitLab's JUnit parser fills no stack trace either: the failure's text is its `system_output`.
    stack_trace: null,
  };
}

function presentSuite(suite: SuiteReport): Static<typeof TestSuiteEntity> {
  return { ...suiteCountsOf(suite), test_cases: suite.suiteError ? [] : suite.testCases.map(presentCase) };
}

export function presentTestReport(report: PipelineTestReport): Static<typeof TestReportEntity> {
  return { ...countsOf(report.total), test_suites: report.suites.map(presentSuite) };
}

export function presentTestReportSummary(summary: PipelineTestSummary): Static<typeof TestReportSummaryEntity> {
  const { total } = summary;
  const suiteError = summary.suites.find((suite) => suite.suiteError)?.suiteError ?? null;
  return {
    total: { ...total, suite_error: suiteError },
    test_suites: summary.suites.map((suite) => ({ ...suiteCountsOf(suite), build_ids: suite.buildIds })),
  };
}
