import type { User } from '../services/users/users';

/** What every page knows about the request: who is signed in, and the token its forms carry. */
export interface PageContext {
  user: User | null;
  csrfToken: string;
}
