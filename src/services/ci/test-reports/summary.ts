import type { StoredSummary, TestCase, TestCounts } from './types';

/** Failed or errored cases named in a stored summary (the job page lists them). */
export const FAILED_NAMES_KEPT = 20;
const NAME_CHARS = 255;

/** Adds one case to the counts (time to the hundredth, as GitLab rounds it). */
export function countCase(counts: TestCounts, testCase: TestCase): void {
  counts.count += 1;
  counts[testCase.status === 'success' ? 'success' : testCase.status] += 1;
  counts.time = roundTime(counts.time + testCase.execution_time);
}

export function addCounts(into: TestCounts, more: TestCounts): void {
  into.count += more.count;
  into.success += more.success;
  into.failed += more.failed;
  into.skipped += more.skipped;
  into.error += more.error;
  into.time = roundTime(into.time + more.time);
}

const roundTime = (seconds: number): number => Math.round(seconds * 100) / 100;

/** A failed case's name as the job page shows it: `classname name`, bounded. */
export function caseLabel(testCase: TestCase): string {
  const label = [testCase.classname, testCase.name].filter((part) => part).join(' ') || '(No name)';
  return label.slice(0, NAME_CHARS);
}

/** The build row's `junit_report_summary` read back; undefined when the build has no report (or an unreadable summary). */
export function storedSummaryOf(build: { junit_report_summary: string | null }): StoredSummary | undefined {
  if (build.junit_report_summary === null) return undefined;
  try {
    const summary = JSON.parse(build.junit_report_summary) as StoredSummary;
    return typeof summary.count === 'number' ? summary : undefined;
  } catch {
    return undefined;
  }
}

/** A build's report summary as its page shows it; undefined without a report, or once it expired. */
export function buildTestSummary(
  build: { junit_report_summary: string | null; junit_report_expire_at: string | null },
  time = new Date().toISOString(),
): StoredSummary | undefined {
  if (build.junit_report_expire_at !== null && build.junit_report_expire_at <= time) return undefined;
  return storedSummaryOf(build);
}

/**
 * The suite a job's cases belong to: the job's name without its parallel index (`rspec 1/3` and
 * `rspec 2/3` are one suite, as GitLab's `group_name` makes them) or its matrix values.
 */
export function suiteNameOf(jobName: string): string {
  return jobName.replace(/([\s:]+(\[.*\]|\d+[\s:/\\]+\d+)){1,3}\s*$/, '').trim() || jobName;
}
