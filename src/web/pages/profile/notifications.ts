import { html, type SafeHtml } from '../../html';
import type { FieldErrors } from '../../form-errors';
import type { ChosenSetting, SettingView } from '../../../services/notifications/settings';
import { hiddenToken, otherErrors } from '../form-field';
import { EVENT_LABELS, EVENTS, LEVEL_LABELS, levelForm, levelOptions } from '../notifications/levels';
import { profileNav } from './nav';

export interface NotificationsForm {
  csrfToken: string;
  global: SettingView;
  /** The addresses mails may go to: the primary one first, then the secondary ones. */
  addresses: string[];
  chosen: ChosenSetting[];
  errors?: FieldErrors;
}

const fieldError = (errors: FieldErrors | undefined, name: string) =>
  errors?.[name] && html`<p class="field-error" id="field-${name}-error">${errors[name].join(', ')}</p>`;
const invalid = (errors: FieldErrors | undefined, name: string) =>
  errors?.[name] ? html` aria-invalid="true" aria-describedby="field-${name}-error"` : '';

/**
 * `/profile/notifications` (GitLab 8.12's): where mails go, the global level with a custom level's
 * events, then every project and group level the user set, each changeable on its own.
 */
export function notificationsPage({ csrfToken, global, addresses, chosen, errors }: NotificationsForm): SafeHtml {
  const groups = chosen.filter((setting) => setting.sourceType === 'Namespace');
  const projects = chosen.filter((setting) => setting.sourceType === 'Project');
  return html`${profileNav('Notifications')}
<h1>Notifications</h1>
<p class="muted">These levels choose which e-mails you get. A project's or group's level set to Global follows the global one.</p>
${otherErrors(errors, ['notification_email', 'level'])}
<form class="stacked" method="post" action="/profile/notifications">
${hiddenToken(csrfToken)}
<label for="field-notification_email">Notification email</label>
<select id="field-notification_email" name="notification_email"${invalid(errors, 'notification_email')}>${addresses.map(
    (address) =>
      html`<option value="${address}"${address.toLowerCase() === global.notification_email?.toLowerCase() ? ' selected' : ''}>${address}</option>`,
  )}</select>
${fieldError(errors, 'notification_email')}
<label for="field-level">Global notification level</label>
<select id="field-level" name="level" aria-describedby="level-meaning"${invalid(errors, 'level')}>${levelOptions(global.level, false)}</select>
${fieldError(errors, 'level')}
<p class="muted" id="level-meaning">${LEVEL_LABELS[global.level][1]}.</p>
<fieldset><legend>Custom events (used when the level is Custom)</legend>
${EVENTS.map(
  (event) =>
    html`<label class="checkbox"><input type="hidden" name="${event}" value="0"><input type="checkbox" name="${event}" value="1"${global.events[event] ? ' checked' : ''}> ${EVENT_LABELS[event]}</label><br>`,
)}</fieldset>
<button type="submit" class="primary">Save changes</button>
</form>
<section aria-labelledby="group-levels">
<h2 id="group-levels">Groups (${groups.length})</h2>
${chosenList(groups, csrfToken, 'You have set no group level.')}
</section>
<section aria-labelledby="project-levels">
<h2 id="project-levels">Projects (${projects.length})</h2>
${chosenList(projects, csrfToken, 'You have set no project level.')}
</section>`;
}

function chosenList(settings: ChosenSetting[], csrfToken: string, empty: string): SafeHtml {
  if (settings.length === 0) return html`<p class="muted">${empty}</p>`;
  return html`<ul class="projects">${settings.map((setting) => {
    const group = setting.sourceType === 'Namespace';
    const page = group ? `/groups/${setting.fullPath}` : `/${setting.fullPath}`;
    const id = `level-${group ? 'group' : 'project'}-${setting.sourceId}`;
    return html`<li><a href="${page}">${setting.name}</a>
${levelForm({ action: `${page}/notification_setting`, current: setting.level, csrfToken, id, label: `Level for ${setting.name}`, back: 'profile' })}</li>`;
  })}</ul>`;
}
