import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../shared/schemas';
import { formatDuration } from '../../../lib/durations';

/** GitLab v4's `time_stats` of issues and merge requests (`Entities::IssuableTimeStats`), seconds and their human form. */
export const TimeStats = Type.Object({
  time_estimate: Type.Integer(),
  total_time_spent: Type.Integer(),
  human_time_estimate: Nullable(Type.String()),
  human_total_time_spent: Nullable(Type.String()),
});

export const presentTimeStats = (timeEstimate: number, totalTimeSpent: number): Static<typeof TimeStats> => ({
  time_estimate: timeEstimate,
  total_time_spent: totalTimeSpent,
  human_time_estimate: formatDuration(timeEstimate),
  human_total_time_spent: formatDuration(totalTimeSpent),
});
