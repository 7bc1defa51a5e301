import { html, type SafeHtml } from '../../html';
import type { SettingValues } from '../../../services/settings/settings';
import type { FieldErrors } from '../../form-errors';
import { hiddenToken, otherErrors } from '../form-field';
import { adminNav } from './nav';

type Kind = 'boolean' | 'number' | 'text' | 'list' | 'visibility' | 'levels' | 'protection';

/** Every setting the API's `PUT /application/settings` takes (but the runners token, which the runners page resets), in GitLab 8.12's order. */
export const SETTING_FIELDS: ReadonlyArray<readonly [keyof SettingValues, string, Kind]> = [
  ['default_branch_protection', 'Default branch protection', 'protection'],
  ['default_project_visibility', 'Default project visibility', 'visibility'],
  ['default_snippet_visibility', 'Default snippet visibility', 'visibility'],
  ['default_group_visibility', 'Default group visibility', 'visibility'],
  ['restricted_visibility_levels', 'Restricted visibility levels (only administrators may choose them)', 'levels'],
  ['default_projects_limit', 'Default projects limit', 'number'],
  ['max_attachment_size', 'Maximum attachment size (MB)', 'number'],
  ['session_expire_delay', 'Session duration (minutes)', 'number'],
  ['container_registry_token_expire_delay', 'Container registry token duration (minutes)', 'number'],
  ['gravatar_enabled', 'Gravatar enabled', 'boolean'],
  ['user_oauth_applications', 'Users may register OAuth applications', 'boolean'],
  ['shared_runners_enabled', 'New projects use shared runners', 'boolean'],
  ['signup_enabled', 'Sign-up enabled', 'boolean'],
  ['signin_enabled', 'Sign-in enabled', 'boolean'],
  ['domain_whitelist', 'Sign-up domains allowed (comma-separated; empty for any)', 'list'],
  ['domain_blacklist_enabled', 'Sign-up domain blacklist enabled', 'boolean'],
  ['domain_blacklist', 'Sign-up domains refused (comma-separated)', 'list'],
  ['home_page_url', 'Home page URL (where anonymous visitors are sent)', 'text'],
  ['after_sign_out_path', 'After sign-out URL', 'text'],
  ['sign_in_text', 'Sign-in text', 'text'],
  ['after_sign_up_text', 'After sign-up text', 'text'],
  ['repository_storage', 'Repository storage', 'text'],
];

const LEVELS: Array<[number, string]> = [
  [0, 'Private'],
  [10, 'Internal'],
  [20, 'Public'],
];
const PROTECTIONS: Array<[number, string]> = [
  [0, 'Not protected'],
  [1, 'Developers may push'],
  [2, 'Fully protected'],
];

/** The form's values: what was typed, as strings (lists and levels as the form sends them). */
export type SettingsFormValues = Record<string, string | string[]>;

/** The stored settings as the form shows them. */
export function formValuesOf(settings: SettingValues): SettingsFormValues {
  const values: SettingsFormValues = {};
  for (const [key, , kind] of SETTING_FIELDS) {
    const value = settings[key];
    if (kind === 'levels') values[key] = (value as number[]).map(String);
    else if (kind === 'list') values[key] = (value as string[]).join(', ');
    else if (kind === 'boolean') values[key] = value ? '1' : '0';
    else values[key] = value === null ? '' : String(value);
  }
  return values;
}

function field(key: string, label: string, kind: Kind, values: SettingsFormValues, errors: FieldErrors | undefined): SafeHtml {
  const id = `field-${key}`;
  const messages = errors?.[key] ?? [];
  const invalid = messages.length > 0 ? html` aria-invalid="true" aria-describedby="${id}-error"` : '';
  const error = messages.length > 0 && html`<p class="field-error" id="${id}-error">${label} ${messages.join(', ')}</p>`;
  const value = values[key] ?? '';
  const chosen = (option: number) => (String(option) === value ? html` selected` : '');
  if (kind === 'boolean')
    return html`<label class="checkbox"><input type="hidden" name="${key}" value="0"><input type="checkbox" id="${id}" name="${key}" value="1"${value === '1' ? html` checked` : ''}${invalid}> ${label}</label>${error}`;
  if (kind === 'levels')
    return html`<fieldset${invalid}><legend>${label}</legend><input type="hidden" name="${key}" value="">${LEVELS.map(
      ([level, name]) =>
        html`<label class="checkbox"><input type="checkbox" name="${key}" value="${level}"${([] as string[]).concat(value).includes(String(level)) ? html` checked` : ''}> ${name}</label> `,
    )}</fieldset>${error}`;
  if (kind === 'visibility' || kind === 'protection')
    return html`<label for="${id}">${label}</label>
<select id="${id}" name="${key}"${invalid}>${(kind === 'visibility' ? LEVELS : PROTECTIONS).map(
      ([option, name]) => html`<option value="${option}"${chosen(option)}>${name}</option>`,
    )}</select>${error}`;
  return html`<label for="${id}">${label}</label>
<input type="${kind === 'number' ? 'number' : 'text'}" id="${id}" name="${key}" value="${value}"${invalid}>${error}`;
}

/** `/admin/application_settings`: every instance setting the API exposes, in one form. */
export function applicationSettingsPage(form: {
  csrfToken: string;
  values: SettingsFormValues;
  errors?: FieldErrors;
  notice?: string;
}): SafeHtml {
  const { values, errors } = form;
  return html`${adminNav('Settings')}
<h1>Application settings</h1>
${form.notice && html`<p class="notice" role="status">${form.notice}</p>`}
${otherErrors(
  errors,
  SETTING_FIELDS.map(([key]) => key),
)}
<form class="stacked" method="post" action="/admin/application_settings">
${hiddenToken(form.csrfToken)}
${SETTING_FIELDS.map(([key, label, kind]) => field(key, label, kind, values, errors))}
<button type="submit" class="primary">Save settings</button>
</form>`;
}
