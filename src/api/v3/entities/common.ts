// Shared with the other doors' entities; re-exported so v3's entities import their pieces from one place.
export { Nullable, Timestamp, NullableTimestamp } from '../../shared/schemas';
export type { Presenter } from '../../shared/types';
