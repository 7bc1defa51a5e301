import type { Api, RouteDeps } from './types';
import { sessionRoutes } from './session';
import { usersRoutes } from './users';

/** Every resource of the consumer API, mounted under /api/v3. */
export async function registerApiV3(api: Api, deps: RouteDeps): Promise<void> {
  sessionRoutes(api, deps);
  usersRoutes(api, deps);
}
