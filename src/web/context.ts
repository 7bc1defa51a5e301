import type { User } from '../services/users/users';
import type { BroadcastMessage } from '../services/broadcast-messages/broadcast-messages';
import type { WorkCounts } from '../services/users/work-counts';

/** What every page knows about the request: who is signed in, and the token its forms carry. */
export interface PageContext {
  user: User | null;
  csrfToken: string;
  /** The broadcast messages active now, shown above every page (none on a page answering a form). */
  broadcasts?: BroadcastMessage[];
  /** The signed-in user's assigned work, counted for the top bar. */
  counts?: WorkCounts;
  /** A one-time notice left by the form whose redirect led here. */
  notice?: string;
}
