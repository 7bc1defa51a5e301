import type { Api, RouteDeps } from '../shared/types';
import { accessRequestRoutes } from '../shared/access-request-routes';
import { accessLevelSchema } from './access-levels';

/** /projects/:id/access_requests and /groups/:id/access_requests in v4: a denial answers 204. */
export function accessRequestsRoutes(api: Api, deps: RouteDeps): void {
  accessRequestRoutes(api, deps, { accessLevel: accessLevelSchema, denialAnswersRequester: false });
}
