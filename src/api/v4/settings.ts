import { Type, type TSchema } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { ApplicationSetting, VISIBILITIES, levelOf, presentSettings, type Visibility } from './entities/settings';
import type { SettingChanges } from '../../services/settings/settings';
import { NameString, TextString } from '../shared/params';

/**
 * A setting that may also come blank (null). A list of types, not `anyOf`: Ajv then coerces only
 * values of neither type, so '' becomes null while 0 and false stay.
 */
const orNull = (schema: TSchema) => Type.Unsafe({ ...schema, type: [schema.type as string, 'null'] });
const OrBlank = (schema: TSchema) => Type.Optional(orNull(schema));
const ListOrBlank = (item: TSchema) => Type.Optional(Type.Unsafe({ type: ['array', 'null'], items: orNull(item) }));
const VisibilityName = Type.String({ enum: [...VISIBILITIES] });

const SettingsChanges = Type.Object({
  default_projects_limit: OrBlank(Type.Integer()),
  signup_enabled: OrBlank(Type.Boolean()),
  signin_enabled: OrBlank(Type.Boolean()),
  gravatar_enabled: OrBlank(Type.Boolean()),
  sign_in_text: OrBlank(TextString()),
  after_sign_up_text: OrBlank(TextString()),
  home_page_url: OrBlank(NameString()),
  default_branch_protection: OrBlank(Type.Integer({ description: '0, 1 or 2' })),
  restricted_visibility_levels: ListOrBlank(VisibilityName),
  max_attachment_size: OrBlank(Type.Integer()),
  session_expire_delay: OrBlank(Type.Integer()),
  default_project_visibility: OrBlank(VisibilityName),
  default_snippet_visibility: OrBlank(VisibilityName),
  default_group_visibility: OrBlank(VisibilityName),
  domain_whitelist: ListOrBlank(NameString()),
  domain_blacklist_enabled: OrBlank(Type.Boolean()),
  domain_blacklist: ListOrBlank(NameString()),
  user_oauth_applications: OrBlank(Type.Boolean()),
  after_sign_out_path: OrBlank(NameString()),
  container_registry_token_expire_delay: OrBlank(Type.Integer()),
  repository_storage: OrBlank(NameString()),
  runners_registration_token: OrBlank(NameString()),
  shared_runners_enabled: OrBlank(Type.Boolean()),
});

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

const config = { access: 'admin' } as const;

/** Instance settings (GitLab 11's `settings.rb`), administrators only; visibility by name. */
export function settingsRoutes(api: Api, { services }: RouteDeps): void {
  api.get('/application/settings', { config, schema: { response: { 200: ApplicationSetting } } }, async () =>
    presentSettings(await services.settings.get()),
  );

  api.put('/application/settings', { config, schema: { body: SettingsChanges, response: { 200: ApplicationSetting } } }, async (request) =>
    presentSettings(await services.settings.update(asLevels(request.body as Record<string, unknown>))),
  );
}
