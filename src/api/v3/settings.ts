import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { ApplicationSetting, presentSettings } from './entities/settings';
import type { SettingChanges } from '../../services/settings/settings';
import { ADMIN_ONLY as config, settingsChanges } from '../shared/settings-changes';

const SettingsChanges = settingsChanges(Type.Integer({ description: '0 private, 10 internal, 20 public' }));

export function settingsRoutes(api: Api, { services }: RouteDeps): void {
  api.get(
    '/application/settings',
    {
      config,
      schema: { response: { 200: ApplicationSetting } },
    },
    async () => presentSettings(await services.settings.get()),
  );

  api.put(
    '/application/settings',
    {
      config,
      schema: { body: SettingsChanges, response: { 200: ApplicationSetting } },
    },
    async (request) => presentSettings(await services.settings.update(request.body as SettingChanges)),
  );
}
