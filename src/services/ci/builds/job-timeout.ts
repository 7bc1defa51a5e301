/**
 * GitLab's `Ci::Build#timeout`, in seconds: the job's own `timeout` wins over the project's, larger
 * or not; the runner's `maximum_timeout` bounds either. The runner counts it down; the stuck-builds
 * sweep fails a build its runner never reported past it.
 */
export function jobTimeout(options: Record<string, unknown>, projectTimeout: number, runnerMaximum: number | null): number {
  const own = typeof options.job_timeout === 'number' && options.job_timeout > 0 ? options.job_timeout : projectTimeout;
  return runnerMaximum === null ? own : Math.min(own, runnerMaximum);
}
