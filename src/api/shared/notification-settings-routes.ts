import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from './types';
import { NotificationSetting, NotificationSettingChange, presentNotificationSetting, settingChange } from './entities/notification-setting';

const ProjectOrGroupId = Type.Object({ id: Type.String() });

/**
 * The caller's notification settings (GitLab's `notification_settings.rb`): global, per project, per
 * group. The same in v3 and v4, so each door registers this one definition.
 */
export function notificationSettingsRoutes(api: Api, { services }: Pick<RouteDeps, 'services'>): void {
  const settings = services.notificationSettings;

  api.get('/notification_settings', { schema: { response: { 200: NotificationSetting } } }, async (request) =>
    presentNotificationSetting(await settings.global(request.user!)),
  );

  api.put(
    '/notification_settings',
    { schema: { body: NotificationSettingChange, response: { 200: NotificationSetting } } },
    async (request) => presentNotificationSetting(await settings.updateGlobal(request.user!, settingChange(request.body))),
  );

  api.get(
    '/projects/:id/notification_settings',
    { config: { project: 'read_project' }, schema: { params: ProjectOrGroupId, response: { 200: NotificationSetting } } },
    async (request) => presentNotificationSetting(await settings.of(request.user!.id, 'Project', request.project.id)),
  );

  api.put(
    '/projects/:id/notification_settings',
    {
      config: { project: 'read_project' },
      schema: { params: ProjectOrGroupId, body: NotificationSettingChange, response: { 200: NotificationSetting } },
    },
    async (request) =>
      presentNotificationSetting(await settings.update(request.user!.id, 'Project', request.project.id, settingChange(request.body))),
  );

  api.get(
    '/groups/:id/notification_settings',
    { config: { group: 'read_group' }, schema: { params: ProjectOrGroupId, response: { 200: NotificationSetting } } },
    async (request) => presentNotificationSetting(await settings.of(request.user!.id, 'Namespace', request.group.id)),
  );

  api.put(
    '/groups/:id/notification_settings',
    {
      config: { group: 'read_group' },
      schema: { params: ProjectOrGroupId, body: NotificationSettingChange, response: { 200: NotificationSetting } },
    },
    async (request) =>
      presentNotificationSetting(await settings.update(request.user!.id, 'Namespace', request.group.id, settingChange(request.body))),
  );
}
