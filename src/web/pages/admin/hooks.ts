import { html, type SafeHtml } from '../../html';
import type { Hook } from '../../../services/hooks/system-hooks';
import type { FieldErrors } from '../../form-errors';
import { actionButton } from '../ci/action-button';
import { timeOf } from '../ci/status';
import { formField, hiddenToken, otherErrors } from '../form-field';
import { adminNav } from './nav';

/** The events an administrator chooses for a system hook (it receives every other system event anyway). */
export const SYSTEM_HOOK_FLAGS = [
  ['push_events', 'Push events'],
  ['tag_push_events', 'Tag push events'],
  ['merge_requests_events', 'Merge request events'],
  ['enable_ssl_verification', 'Enable SSL verification'],
] as const;

export type SystemHookFlag = (typeof SYSTEM_HOOK_FLAGS)[number][0];

export interface HookForm {
  csrfToken: string;
  values: { url: string; token: string; flags: Record<SystemHookFlag, boolean> };
  errors?: FieldErrors;
  notice?: string;
}

/** `/admin/hooks/:id`: one system hook, its Test and Remove buttons, and its recent deliveries. */
export function systemHookPage(hook: Hook, csrfToken: string, deliveries: SafeHtml): SafeHtml {
  return html`${adminNav('Hooks')}
<h1>System hook ${String(hook.id)}</h1>
<dl>
<dt>URL</dt><dd><code>${hook.url}</code></dd>
<dt>Events</dt><dd>${events(hook)}</dd>
<dt>Added</dt><dd>${timeOf(hook.created_at)}</dd>
</dl>
<div class="actions"><a class="button" href="/admin/hooks/${String(hook.id)}/edit">Edit</a> ${actionButton(`/admin/hooks/${hook.id}/test`, `Test hook ${hook.id}`, csrfToken)} ${actionButton(`/admin/hooks/${hook.id}/delete`, `Remove hook ${hook.id}`, csrfToken)}</div>
${deliveries}`;
}

const events = (hook: Hook): SafeHtml =>
  html`${SYSTEM_HOOK_FLAGS.filter(([flag]) => flag !== 'enable_ssl_verification' && hook[flag])
    .map(([, label]) => label)
    .join(', ')}${hook.enable_ssl_verification ? '' : html` <span class="badge">no SSL verification</span>`}`;

/** `/admin/hooks`: the system hooks, each to test or remove, and a form for a new one. */
export function systemHooksPage(hooks: Hook[], form: HookForm): SafeHtml {
  const { csrfToken, errors } = form;
  return html`${adminNav('Hooks')}
<h1>System hooks (${hooks.length})</h1>
<p class="muted">A system hook receives every system event (projects, users, groups and members created or removed), and pushes when asked.</p>
${form.notice && html`<p class="notice" role="status">${form.notice}</p>`}
<div class="table-wrap"><table class="admin">
<thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Added</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
<tbody>${hooks.map(
    (hook) => html`<tr>
<td><a href="/admin/hooks/${String(hook.id)}"><code>${hook.url}</code></a></td>
<td>${events(hook)}</td>
<td>${timeOf(hook.created_at)}</td>
<td><a href="/admin/hooks/${String(hook.id)}/edit">Edit</a> ${actionButton(`/admin/hooks/${hook.id}/test`, `Test hook ${hook.id}`, csrfToken)} ${actionButton(`/admin/hooks/${hook.id}/delete`, `Remove hook ${hook.id}`, csrfToken)}</td>
</tr>`,
  )}</tbody></table></div>
<section aria-labelledby="new-hook">
<h2 id="new-hook">Add a system hook</h2>
${otherErrors(errors, ['url', 'token'])}
<form class="stacked" method="post" action="/admin/hooks">
${hookFields(form)}
<button type="submit" class="primary">Add system hook</button>
</form>
</section>`;
}

/** The URL, token and event fields of a new or an edited hook, with what was typed and its messages. */
function hookFields({ csrfToken, values, errors }: HookForm): SafeHtml {
  return html`${hiddenToken(csrfToken)}
${formField({ name: 'url', label: 'URL', value: values.url, errors, required: true })}
${formField({ name: 'token', label: 'Secret token (sent as X-Gitlab-Token)', value: values.token, errors })}
${SYSTEM_HOOK_FLAGS.map(
  ([flag, label]) =>
    html`<label class="checkbox"><input type="hidden" name="${flag}" value="0"><input type="checkbox" name="${flag}" value="1"${values.flags[flag] ? html` checked` : ''}> ${label}</label>`,
)}`;
}

/** `/admin/hooks/:id/edit`: the hook's URL, token and events, as the new-hook form takes them. */
export function editSystemHookPage(hook: Hook, form: HookForm): SafeHtml {
  return html`${adminNav('Hooks')}
<h1>Edit system hook ${String(hook.id)}</h1>
${otherErrors(form.errors, ['url', 'token'])}
<form class="stacked" method="post" action="/admin/hooks/${String(hook.id)}">
<input type="hidden" name="_method" value="patch">
${hookFields(form)}
<button type="submit" class="primary">Save changes</button> <a href="/admin/hooks/${String(hook.id)}">Cancel</a>
</form>`;
}
