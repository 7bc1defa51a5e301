import type { Services } from '../../services/index';
import type { UrlBase } from '../../lib/urls';

export type { Api } from '../../http/api';

/** What entity mappers need to know about the server: its addresses (see `presenter.ts`). */
export interface Presenter extends UrlBase {
  /** A user's page: `/u/:username` in v3 (8.12), `/:username` in v4. */
  userWebUrl(username: string): string;
}

/** What every door of the consumer API (v3, v4) is given: the services and how to present addresses; never the database. */
export interface RouteDeps {
  services: Services;
  presenter: Presenter;
}
