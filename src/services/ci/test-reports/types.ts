/** A test case's outcome, as GitLab names it. */
export type TestStatus = 'success' | 'failed' | 'error' | 'skipped';

/** One `<testcase>` as read from a JUnit report. */
export interface TestCase {
  status: TestStatus;
  name: string | null;
  classname: string | null;
  file: string | null;
  /** Seconds, from `time`; 0 when missing or unreadable. */
  execution_time: number;
  /** The failure's, error's or skip's text (its `message` when it has none); a passed case's `<system-out>`. */
  system_output: string | null;
}

/** Counts and time of a set of test cases. */
export interface TestCounts {
  /** Seconds, the sum of the cases' times, to the hundredth. */
  time: number;
  count: number;
  success: number;
  failed: number;
  skipped: number;
  error: number;
}

/**
 * What is kept of a job's report once uploaded (the build row's `junit_report_summary`): its counts,
 * why it could not be read whole (`suite_error`), and the first failed or errored cases' names, so
 * that the job's page and the summary API need not read the file again.
 */
export interface StoredSummary extends TestCounts {
  suite_error: string | null;
  failed_names: string[];
}

export const emptyCounts = (): TestCounts => ({ time: 0, count: 0, success: 0, failed: 0, skipped: 0, error: 0 });
