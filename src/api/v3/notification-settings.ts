import type { Api, RouteDeps } from '../shared/types';
import { notificationSettingsRoutes as sharedRoutes } from '../shared/notification-settings-routes';

/** `/notification_settings`, `/projects/:id/notification_settings`, `/groups/:id/notification_settings`: the same in every version. */
export function notificationSettingsRoutes(api: Api, deps: RouteDeps): void {
  sharedRoutes(api, deps);
}
