import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { accessRequestRoutes } from '../shared/access-request-routes';

/** /projects/:id/access_requests and /groups/:id/access_requests: a level as a number or a string, a denial answers the requester. */
export function accessRequestsRoutes(api: Api, deps: RouteDeps): void {
  accessRequestRoutes(api, deps, {
    accessLevel: () => Type.Union([Type.Integer(), Type.String(), Type.Null()]),
    denialAnswersRequester: true,
  });
}
