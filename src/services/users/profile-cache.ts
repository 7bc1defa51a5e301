import { RecentCache } from '../../lib/recent-cache';

export interface Identity {
  provider: string;
  extern_uid: string;
}

/** What the full user shape adds to the row. */
export interface ProfileExtras {
  identities: Identity[];
  personalProjects: number;
}

/** How long another process may go on seeing a user as it was. */
export const RECENT_MS = 1000;

/**
 * The extras of the full user shape (every `GET /user`), remembered for a second. Made by the
 * composition root and handed to both users (who read it and forget it on their writes) and
 * projects (who forget it once a change to personal projects is committed), so that neither
 * service is handed the other after construction.
 */
export class ProfileCache extends RecentCache<number, ProfileExtras> {
  constructor() {
    super(RECENT_MS);
  }
}
