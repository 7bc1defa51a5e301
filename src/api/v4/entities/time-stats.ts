import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../shared/schemas';

/** GitLab v4's `time_stats` of issues and merge requests. Forge tracks no time: every one reads zero. */
export const TimeStats = Type.Object({
  time_estimate: Type.Integer(),
  total_time_spent: Type.Integer(),
  human_time_estimate: Nullable(Type.String()),
  human_total_time_spent: Nullable(Type.String()),
});

export const noTimeSpent = (): Static<typeof TimeStats> => ({
  time_estimate: 0,
  total_time_spent: 0,
  human_time_estimate: null,
  human_total_time_spent: null,
});
