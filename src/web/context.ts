import type { User } from '../services/users/users';
import type { BroadcastMessage } from '../services/broadcast-messages/broadcast-messages';

/** What every page knows about the request: who is signed in, and the token its forms carry. */
export interface PageContext {
  user: User | null;
  csrfToken: string;
  /** The broadcast messages active now, shown above every page (none on a page answering a form). */
  broadcasts?: BroadcastMessage[];
}
