import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { ApplicationSetting, VISIBILITIES, levelOf, presentSettings, type Visibility } from './entities/settings';
import type { SettingChanges } from '../../services/settings/settings';
import { ADMIN_ONLY as config, settingsChanges } from '../shared/settings-changes';

const SettingsChanges = settingsChanges(Type.String({ enum: [...VISIBILITIES] }));

const VISIBILITY_FIELDS = ['default_project_visibility', 'default_snippet_visibility', 'default_group_visibility'] as const;

/** The service keeps levels: v4's names become them, blank stays blank. */
function asLevels(body: Record<string, unknown>): SettingChanges {
  const changes: Record<string, unknown> = { ...body };
  for (const field of VISIBILITY_FIELDS) {
    if (typeof body[field] === 'string') changes[field] = levelOf(body[field] as Visibility);
  }
  const restricted = body.restricted_visibility_levels;
  if (Array.isArray(restricted))
    changes.restricted_visibility_levels = restricted.map((name) => (typeof name === 'string' ? levelOf(name as Visibility) : name));
  return changes as SettingChanges;
}

/** Instance settings (GitLab 11's `settings.rb`), administrators only; visibility by name. */
export function settingsRoutes(api: Api, { services }: RouteDeps): void {
  api.get('/application/settings', { config, schema: { response: { 200: ApplicationSetting } } }, async () =>
    presentSettings(await services.settings.get()),
  );

  api.put('/application/settings', { config, schema: { body: SettingsChanges, response: { 200: ApplicationSetting } } }, async (request) =>
    presentSettings(await services.settings.update(asLevels(request.body as Record<string, unknown>))),
  );
}
