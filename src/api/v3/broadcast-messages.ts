import type { Api, RouteDeps } from '../shared/types';
import { broadcastMessageRoutes } from '../shared/broadcast-message-routes';

export function broadcastMessagesRoutes(api: Api, deps: RouteDeps): void {
  broadcastMessageRoutes(api, deps, { removalAnswersMessage: true });
}
