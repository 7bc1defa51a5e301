import { Type, type Static } from '@sinclair/typebox';
import type { ApplicationSettings } from '../../../services/settings/settings';
import { Nullable, Timestamp } from '../schemas';

/**
 * GitLab's ApplicationSetting entity without its visibility settings, which each API version
 * words its own way (levels in v3, names in v4), plus the shared runners' registration token.
 */
export const ApplicationSettingCommon = Type.Object({
  id: Type.Integer(),
  default_projects_limit: Type.Integer(),
  signup_enabled: Type.Boolean(),
  signin_enabled: Type.Boolean(),
  gravatar_enabled: Type.Boolean(),
  sign_in_text: Nullable(Type.String()),
  after_sign_up_text: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
  home_page_url: Nullable(Type.String()),
  default_branch_protection: Type.Integer(),
  max_attachment_size: Type.Integer(),
  session_expire_delay: Type.Integer(),
  domain_whitelist: Type.Array(Type.String()),
  domain_blacklist_enabled: Type.Boolean(),
  domain_blacklist: Type.Array(Type.String()),
  user_oauth_applications: Type.Boolean(),
  after_sign_out_path: Nullable(Type.String()),
  container_registry_token_expire_delay: Type.Integer(),
  repository_storage: Type.String(),
  runners_registration_token: Type.String(),
});

export function presentSettingsCommon(settings: ApplicationSettings): Static<typeof ApplicationSettingCommon> {
  return {
    id: settings.id,
    default_projects_limit: settings.default_projects_limit,
    signup_enabled: settings.signup_enabled,
    signin_enabled: settings.signin_enabled,
    gravatar_enabled: settings.gravatar_enabled,
    sign_in_text: settings.sign_in_text,
    after_sign_up_text: settings.after_sign_up_text,
    created_at: settings.created_at,
    updated_at: settings.updated_at,
    home_page_url: settings.home_page_url,
    default_branch_protection: settings.default_branch_protection,
    max_attachment_size: settings.max_attachment_size,
    session_expire_delay: settings.session_expire_delay,
    domain_whitelist: settings.domain_whitelist,
    domain_blacklist_enabled: settings.domain_blacklist_enabled,
    domain_blacklist: settings.domain_blacklist,
    user_oauth_applications: settings.user_oauth_applications,
    after_sign_out_path: settings.after_sign_out_path,
    container_registry_token_expire_delay: settings.container_registry_token_expire_delay,
    repository_storage: settings.repository_storage,
    runners_registration_token: settings.runners_registration_token,
  };
}
