import type { UrlBase } from '../../../lib/urls';

// Shared with the other doors' entities; re-exported so v3's entities import their pieces from one place.
export { Nullable, Timestamp, NullableTimestamp } from '../../shared/schemas';

/** What entity mappers need to know about the server: its addresses (the config). */
export type Presenter = UrlBase;
