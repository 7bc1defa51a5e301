import { Validation } from '../../errors';

/** The instance-wide settings an administrator edits, as stored in `application_settings.data`. */
export interface SettingValues {
  default_projects_limit: number;
  signup_enabled: boolean;
  signin_enabled: boolean;
  gravatar_enabled: boolean;
  sign_in_text: string | null;
  after_sign_up_text: string | null;
  home_page_url: string | null;
  /** 0 unprotected, 1 developers may push, 2 fully protected. */
  default_branch_protection: number;
  /** Visibility levels (0, 10, 20) that only administrators may choose. */
  restricted_visibility_levels: number[];
  max_attachment_size: number;
  session_expire_delay: number;
  default_project_visibility: number;
  default_snippet_visibility: number;
  default_group_visibility: number;
  domain_whitelist: string[];
  domain_blacklist_enabled: boolean;
  domain_blacklist: string[];
  user_oauth_applications: boolean;
  after_sign_out_path: string | null;
  container_registry_token_expire_delay: number;
  repository_storage: string;
  /** New projects use shared runners (a column GitLab 8.12's PUT accepts but its entity does not show). */
  shared_runners_enabled: boolean;
}

/** A blank value (null or ''), or a list with blank items. */
type OrBlank<T> = T extends (infer Item)[] ? (Item | null)[] | null : T | null;

/** A PUT: any editable setting, possibly blank. */
export type SettingChanges = { [K in keyof SettingValues]?: OrBlank<SettingValues[K]> } & { runners_registration_token?: string | null };

/** GitLab 8.12's fresh-install values (`ApplicationSetting.create_from_defaults`). */
export const DEFAULT_SETTINGS: SettingValues = {
  default_projects_limit: 10,
  signup_enabled: true,
  signin_enabled: true,
  gravatar_enabled: true,
  sign_in_text: null,
  after_sign_up_text: null,
  home_page_url: null,
  default_branch_protection: 2,
  restricted_visibility_levels: [],
  max_attachment_size: 10,
  session_expire_delay: 10080,
  default_project_visibility: 0,
  default_snippet_visibility: 0,
  default_group_visibility: 0,
  domain_whitelist: [],
  domain_blacklist_enabled: false,
  domain_blacklist: [],
  user_oauth_applications: true,
  after_sign_out_path: null,
  container_registry_token_expire_delay: 5,
  repository_storage: 'default',
  shared_runners_enabled: true,
};

const VISIBILITY_LEVELS = [0, 10, 20];
const BRANCH_PROTECTIONS = [0, 1, 2];
/** Repositories live in one storage. */
const REPOSITORY_STORAGES = ['default'];
/** Integer settings end up in 32-bit columns (a user's projects_limit). */
const MAX_INTEGER = 2147483647;

const TEXTS = ['sign_in_text', 'after_sign_up_text', 'home_page_url', 'after_sign_out_path'] as const;
const LISTS = ['restricted_visibility_levels', 'domain_whitelist', 'domain_blacklist'] as const;

/**
 * Applies a PUT to the current values. A blank value leaves a setting as it is
 * (GitLab's `attributes_for_keys`), except that it clears a text and empties a list:
 * GitLab 8.12 offered no way to lift every visibility restriction through the API.
 */
export function applyChanges(current: SettingValues, changes: SettingChanges): SettingValues {
  const next: Record<string, unknown> = { ...current };
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof SettingValues)[]) {
    const value = changes[key];
    if (value === undefined) continue;
    if (Array.isArray(value))
      next[key] = value.map((item) => (typeof item === 'string' ? item.trim() : item)).filter((item) => item !== null && item !== '');
    else if (value !== null && value !== '') next[key] = value;
    else if ((TEXTS as readonly string[]).includes(key)) next[key] = null;
    else if ((LISTS as readonly string[]).includes(key)) next[key] = [];
  }
  return next as unknown as SettingValues;
}

/** GitLab's model validations, plus the ranges GitLab left to chance; a 400 naming each bad field. */
export function checkSettings(values: SettingValues): void {
  const validation = new Validation();
  const atLeast = (field: keyof SettingValues, minimum: 0 | 1) => {
    const value = values[field] as number;
    if (value < minimum) validation.add(field, minimum === 0 ? 'must be greater than or equal to 0' : 'must be greater than 0');
    if (value > MAX_INTEGER) validation.add(field, `must be less than or equal to ${MAX_INTEGER}`);
  };
  atLeast('default_projects_limit', 0);
  atLeast('session_expire_delay', 0);
  atLeast('max_attachment_size', 1);
  atLeast('container_registry_token_expire_delay', 1);
  if (!BRANCH_PROTECTIONS.includes(values.default_branch_protection))
    validation.add('default_branch_protection', 'is not included in the list');
  for (const field of ['default_project_visibility', 'default_snippet_visibility', 'default_group_visibility'] as const) {
    if (!VISIBILITY_LEVELS.includes(values[field])) validation.add(field, 'is not included in the list');
  }
  for (const level of values.restricted_visibility_levels) {
    if (!VISIBILITY_LEVELS.includes(level)) validation.add('restricted_visibility_levels', `'${level}' is not a valid visibility level`);
  }
  for (const field of ['home_page_url', 'after_sign_out_path'] as const) {
    const value = values[field];
    if (value !== null && !isWebUrl(value)) validation.add(field, 'must be a valid URL');
  }
  if (values.domain_blacklist_enabled && values.domain_blacklist.length === 0) {
    validation.add('domain_blacklist', 'Domain blacklist cannot be empty if Blacklist is enabled.');
  }
  if (!REPOSITORY_STORAGES.includes(values.repository_storage)) validation.add('repository_storage', 'is not included in the list');
  validation.throwIfInvalid();
}

function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
