import { html, type SafeHtml } from '../../html';
import { EVENTS, LEVELS, type EventName, type Level } from '../../../services/notifications/levels';

/** GitLab 8.12's names of the levels, and what each means. */
export const LEVEL_LABELS: Record<Level, [string, string]> = {
  global: ['Global', 'Use the global notification setting'],
  watch: ['Watch', 'You will receive notifications for any activity'],
  participating: ['Participate', 'You will only receive notifications for threads you have participated in'],
  mention: ['On mention', 'You will receive notifications only for comments in which you were @mentioned'],
  disabled: ['Disabled', 'You will not get any notifications via email'],
  custom: ['Custom', 'You will only receive notifications for the events you choose'],
};

export const EVENT_LABELS: Record<EventName, string> = {
  new_note: 'New note',
  new_issue: 'New issue',
  reopen_issue: 'Reopen issue',
  close_issue: 'Close issue',
  reassign_issue: 'Reassign issue',
  new_merge_request: 'New merge request',
  reopen_merge_request: 'Reopen merge request',
  close_merge_request: 'Close merge request',
  reassign_merge_request: 'Reassign merge request',
  merge_merge_request: 'Merge merge request',
};

export { EVENTS };

/** The levels a select offers: a project's or group's may follow the global one; the global one may not. */
export function levelOptions(current: Level, withGlobal: boolean): SafeHtml {
  return html`${LEVELS.filter((level) => withGlobal || level !== 'global').map(
    (level) => html`<option value="${level}"${level === current ? ' selected' : ''}>${LEVEL_LABELS[level][0]}</option>`,
  )}`;
}

/**
 * The level control of a project's or group's page (GitLab's notification dropdown): a select and
 * a button that posts it, so it works without a script. `id` tells two such forms on a page apart.
 */
export function levelForm(options: {
  action: string;
  current: Level;
  csrfToken: string;
  id: string;
  label: string;
  back?: string;
}): SafeHtml {
  const { action, current, csrfToken, id, label } = options;
  return html`<form class="inline notification-level" method="post" action="${action}">
<input type="hidden" name="authenticity_token" value="${csrfToken}">${options.back ? html`<input type="hidden" name="back" value="${options.back}">` : ''}
<label for="${id}">${label}</label>
<select id="${id}" name="level">${levelOptions(current, true)}</select>
<button type="submit">Save</button>
</form>`;
}
