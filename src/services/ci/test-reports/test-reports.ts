import type { ServiceContext } from '../../context';
import type { Project } from '../../projects/types';
import { recordNotFound } from '../../../errors';
import { ImmutableCache } from '../../../git/immutable-cache';
import { LIMITS } from '../../../lib/limits';
import { junitReportKey } from '../builds/files';
import { readJunit } from './junit-reader';
import { addCounts, storedSummaryOf, suiteNameOf } from './summary';
import { emptyCounts, type TestCase, type TestCounts } from './types';

/** A pipeline's suite: one per job name (a parallel job's parts make one), its counts added up. */
export interface SuiteSummary {
  name: string;
  counts: TestCounts;
  buildIds: number[];
  /** Why one of its reports could not be read whole (the first such reason). */
  suiteError: string | null;
}

export interface SuiteReport extends SuiteSummary {
  /** Failed and errored cases first, then the rest, each in report order; bounded (`LIMITS.junitCases`). */
  testCases: TestCase[];
}

export interface PipelineTestSummary {
  total: TestCounts;
  suites: SuiteSummary[];
}

export interface PipelineTestReport {
  total: TestCounts;
  suites: SuiteReport[];
}

interface ReportBuild {
  id: number;
  project_id: number;
  name: string;
  junit_report_summary: string | null;
  updated_at: string;
}

/** Full reports kept at most, and their weight (cases and output, `weighReport`). */
const KEPT_REPORTS = 64;
const KEPT_REPORT_BYTES = 64 * 1024 * 1024;

/**
 * A pipeline's test reports (GitLab's `Ci::Pipeline#test_reports`): the JUnit reports of the
 * latest build of each name (a retried build's report is replaced by its retry's), unexpired.
 * Counts come from what was read at upload; the full report reads the files again for the cases.
 */
export class TestReportsService {
  /**
   * Full reports as read from their files, by pipeline and the report builds' ids and last
   * updates: a new upload, an erase or a retry changes the key, and a repeated read touches no file.
   */
  private readonly reports = new ImmutableCache<PipelineTestReport>({
    maxEntries: KEPT_REPORTS,
    maxBytes: KEPT_REPORT_BYTES,
    weigh: weighReport,
  });

  constructor(private readonly ctx: ServiceContext) {}

  async pipelineSummary(project: Project, pipelineId: number): Promise<PipelineTestSummary> {
    return summaryOf(await this.reportBuilds(project, pipelineId));
  }

  /** Shared with every caller of the same pipeline at the same state: must not be modified. */
  async pipelineReport(project: Project, pipelineId: number): Promise<PipelineTestReport> {
    const builds = await this.reportBuilds(project, pipelineId);
    const key = `${pipelineId}\0${builds.map((build) => `${build.id}@${build.updated_at}`).join(',')}`;
    return this.reports.get(key, () => this.readReport(builds));
  }

  private async readReport(builds: ReportBuild[]): Promise<PipelineTestReport> {
    const { total, suites } = summaryOf(builds);
    const budget = { cases: LIMITS.junitCases, output: LIMITS.junitOutputTotal };
    const casesOf = new Map<string, TestCase[]>();
    for (const build of builds) {
      const suite = suiteNameOf(build.name);
      if (suites.find((s) => s.name === suite)?.suiteError) continue;
      const into = casesOf.get(suite) ?? [];
      casesOf.set(suite, into);
      await this.readCases(build, into, budget);
    }
    return {
      total,
      suites: suites.map((suite) => ({ ...suite, testCases: failuresFirst(casesOf.get(suite.name) ?? []) })),
    };
  }

  private async readCases(build: ReportBuild, into: TestCase[], budget: { cases: number; output: number }): Promise<void> {
    if (budget.cases <= 0) return;
    const stream = await this.ctx.files.read(junitReportKey(build));
    if (!stream) return;
    await readJunit(
      stream,
      (testCase) => {
        if (budget.cases <= 0) return;
        budget.cases -= 1;
        const output = testCase.system_output;
        // Past the answer's output budget, cases are listed without their output.
        const kept = output !== null && output.length <= budget.output ? output : null;
        if (kept !== null) budget.output -= kept.length;
        into.push({ ...testCase, system_output: kept });
      },
      { outputChars: LIMITS.junitCaseOutput },
    );
    stream.destroy();
  }

  /** The pipeline's latest build of each name that has an unexpired report; 404 for a pipeline the project does not have. */
  private async reportBuilds(project: Project, pipelineId: number): Promise<ReportBuild[]> {
    const pipeline = await this.ctx.db
      .selectFrom('ci_pipelines')
      .select('id')
      .where('project_id', '=', project.id)
      .where('id', '=', pipelineId)
      .executeTakeFirst();
    if (!pipeline) throw recordNotFound();
    const builds = await this.ctx.db
      .selectFrom('ci_builds')
      .select(['id', 'project_id', 'name', 'junit_report_summary', 'junit_report_expire_at', 'updated_at'])
      .where('pipeline_id', '=', pipeline.id)
      .where('type', '=', 'Build')
      .orderBy('id')
      .execute();
    const latest = new Map<string, (typeof builds)[number]>();
    for (const build of builds) latest.set(build.name, build);
    const time = new Date().toISOString();
    return [...latest.values()].filter(
      (build) => build.junit_report_summary !== null && (build.junit_report_expire_at === null || build.junit_report_expire_at > time),
    );
  }
}

function summaryOf(builds: ReportBuild[]): PipelineTestSummary {
  const total = emptyCounts();
  const suites = new Map<string, SuiteSummary>();
  for (const build of builds) {
    const stored = storedSummaryOf(build);
    if (!stored) continue;
    const name = suiteNameOf(build.name);
    const suite = suites.get(name) ?? { name, counts: emptyCounts(), buildIds: [], suiteError: null };
    suites.set(name, suite);
    addCounts(suite.counts, stored);
    addCounts(total, stored);
    suite.buildIds.push(build.id);
    suite.suiteError ??= stored.suite_error;
  }
  return { total, suites: [...suites.values()] };
}

/** About what a report holds in memory: its output and a few hundred bytes a case. */
function weighReport(report: PipelineTestReport): number {
  let bytes = 0;
  for (const suite of report.suites) for (const testCase of suite.testCases) bytes += 256 + (testCase.system_output?.length ?? 0) * 2;
  return bytes;
}

const failing = (testCase: TestCase) => testCase.status === 'failed' || testCase.status === 'error';

function failuresFirst(cases: TestCase[]): TestCase[] {
  return [...cases.filter(failing), ...cases.filter((testCase) => !failing(testCase))];
}
