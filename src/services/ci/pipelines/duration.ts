/** A span of time in milliseconds since the epoch, `start <= end`. */
export interface Interval {
  start: number;
  end: number;
}

/**
 * The length of the union of intervals: overlapping (or touching) ones are merged first, so that
 * time during which several builds ran counts once, and gaps between them not at all.
 */
export function unionLength(intervals: readonly Interval[]): number {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  let total = 0;
  let current: Interval | undefined;
  for (const interval of sorted) {
    if (current && interval.start <= current.end) {
      current.end = Math.max(current.end, interval.end);
      continue;
    }
    if (current) total += current.end - current.start;
    current = { ...interval };
  }
  if (current) total += current.end - current.start;
  return total;
}

export interface TimedBuild {
  status: string;
  started_at: string | null;
  finished_at: string | null;
}

const TIMED_STATUSES: readonly string[] = ['success', 'failed', 'running', 'canceled'];

/**
 * GitLab 8.12's pipeline `duration` (`Gitlab::Ci::PipelineDuration`): the time during which at
 * least one of `latestBuilds` ran, in whole seconds (truncated, as Rails stores a float in an
 * integer column). Only builds that started and ran or are running count; one still running counts
 * until `now`. Queue time, and time between stages, is not duration.
 */
export function pipelineDuration(latestBuilds: readonly TimedBuild[], now: string): number {
  const until = Date.parse(now);
  const intervals = latestBuilds
    .filter((build) => build.started_at !== null && TIMED_STATUSES.includes(build.status))
    .map((build) => {
      const start = Date.parse(build.started_at!);
      // A clock set back between start and finish must not make a negative duration.
      return { start, end: Math.max(start, build.finished_at === null ? until : Date.parse(build.finished_at)) };
    });
  return Math.floor(unionLength(intervals) / 1000);
}
