import type { Api, RouteDeps } from '../shared/types';
import { broadcastMessageRoutes } from '../shared/broadcast-message-routes';

/** Broadcast messages (GitLab 11's `broadcast_messages.rb`): as v3, but removing one answers 204. */
export function broadcastMessagesRoutes(api: Api, deps: RouteDeps): void {
  broadcastMessageRoutes(api, deps, { removalAnswersMessage: false });
}
