import { Type, type TSchema } from '@sinclair/typebox';
import { NameString, TextString } from './params';

/**
 * A setting that may also come blank (null). A list of types, not `anyOf`: Ajv then coerces only
 * values of neither type, so '' becomes null while 0 and false stay. (The type provider cannot see
 * through these schemas: routes cast the body.)
 */
const orNull = (schema: TSchema) => Type.Unsafe({ ...schema, type: [schema.type as string, 'null'] });
const OrBlank = (schema: TSchema) => Type.Optional(orNull(schema));
/** A list that may come blank (`x[]=` in a form): the service drops blank items. */
const ListOrBlank = (item: TSchema) => Type.Optional(Type.Unsafe({ type: ['array', 'null'], items: orNull(item) }));

/**
 * `PUT /application/settings`: every setting of the shape but `id`, `created_at` and `updated_at`,
 * and `shared_runners_enabled` as in GitLab. The doors differ only in how a visibility is written
 * (v3 a level, v4 a name): `visibility` is that schema.
 */
export function settingsChanges(visibility: TSchema) {
  return Type.Object({
    default_projects_limit: OrBlank(Type.Integer()),
    signup_enabled: OrBlank(Type.Boolean()),
    signin_enabled: OrBlank(Type.Boolean()),
    gravatar_enabled: OrBlank(Type.Boolean()),
    sign_in_text: OrBlank(TextString()),
    after_sign_up_text: OrBlank(TextString()),
    home_page_url: OrBlank(NameString()),
    default_branch_protection: OrBlank(Type.Integer({ description: '0, 1 or 2' })),
    restricted_visibility_levels: ListOrBlank(visibility),
    max_attachment_size: OrBlank(Type.Integer()),
    session_expire_delay: OrBlank(Type.Integer()),
    default_project_visibility: OrBlank(visibility),
    default_snippet_visibility: OrBlank(visibility),
    default_group_visibility: OrBlank(visibility),
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
}

/** GitLab 8.12 checked "is admin" before "is anybody" here, so anonymous callers got a 500; they get the 401 every other administrator route answers. */
export const ADMIN_ONLY = { access: 'admin' } as const;
