import { html, type SafeHtml } from '../../html';
import type { PageContext } from '../../context';
import type { FieldErrors } from '../../form-errors';
import type { Project } from '../../../services/projects/types';
import type { ProjectHook } from '../../../services/hooks/project-hooks';
import { HOOK_FLAG_DEFAULTS, type HookFlag } from '../../../services/hooks/flags';
import { projectPath } from '../../paths';
import { formField, hiddenToken, otherErrors } from '../form-field';
import { methodButton, settingsFrame } from './frame';

/** The events a hook may receive, as GitLab 8.12's form names them, then the certificate check. */
export const HOOK_CHOICES: Array<[HookFlag, string]> = [
  ['push_events', 'Push events'],
  ['tag_push_events', 'Tag push events'],
  ['note_events', 'Comments'],
  ['issues_events', 'Issues events'],
  ['merge_requests_events', 'Merge request events'],
  ['build_events', 'Build events'],
  ['pipeline_events', 'Pipeline events'],
  ['wiki_page_events', 'Wiki page events'],
  ['enable_ssl_verification', 'Enable SSL verification'],
];

export interface HookValues {
  url?: string;
  flags: Record<HookFlag, boolean>;
}

export const defaultHookValues = (): HookValues => ({ flags: { ...HOOK_FLAG_DEFAULTS } });
export const hookValues = (hook: ProjectHook): HookValues => ({
  url: hook.url,
  flags: Object.fromEntries(HOOK_CHOICES.map(([flag]) => [flag, hook[flag] === 1])) as Record<HookFlag, boolean>,
});

/** The fields of a new or changed hook; the token is write-only, so its field starts empty. */
function hookFields(values: HookValues, errors: FieldErrors | undefined, editing: boolean): SafeHtml {
  return html`${formField({ name: 'url', label: 'URL', value: values.url, errors, required: true })}
${formField({ name: 'token', label: editing ? 'Secret token (left blank, the stored one is kept)' : 'Secret token (optional)', type: 'password', errors })}
<fieldset><legend>Trigger</legend>${HOOK_CHOICES.map(
    ([flag, label]) =>
      html`<label class="checkbox"><input type="checkbox" name="${flag}" value="1"${values.flags[flag] ? ' checked' : ''}> ${label}</label><br>`,
  )}</fieldset>`;
}

export interface HooksSettings {
  project: Project;
  hooks: ProjectHook[];
  typed?: HookValues & { errors?: FieldErrors };
  /** What the last test delivery came to. */
  notice?: string;
  failure?: string;
}

/** `…/hooks`: the project's webhooks, each with Test, Edit and Remove, and the form that adds one. */
export function hooksPage(page: PageContext, settings: HooksSettings): SafeHtml {
  const { project } = settings;
  const base = `${projectPath(project)}/hooks`;
  const typed = settings.typed ?? defaultHookValues();
  const body = html`${settings.failure && html`<div class="flash" role="alert"><p>${settings.failure}</p></div>`}
<h2>Add a webhook</h2>
${otherErrors(settings.typed?.errors, ['url', 'token'])}
<form class="stacked" method="post" action="${base}">
${hiddenToken(page.csrfToken)}
${hookFields(typed, settings.typed?.errors, false)}
<button type="submit" class="primary">Add webhook</button>
</form>
<h2>Webhooks <span class="badge">${String(settings.hooks.length)}</span></h2>
${
  settings.hooks.length === 0
    ? html`<p class="muted">No webhook is set up.</p>`
    : html`<ul class="refs">${settings.hooks.map(
        (hook) => html`<li><code>${hook.url}</code> <span class="muted">${HOOK_CHOICES.filter(
          ([flag]) => flag !== 'enable_ssl_verification' && hook[flag] === 1,
        )
          .map(([, label]) => label)
          .join(', ')}</span>
<div class="actions">${methodButton({ action: `${base}/${hook.id}/test`, method: 'post', csrfToken: page.csrfToken, label: 'Test' })}
<a class="button" href="${base}/${String(hook.id)}/edit">Edit</a>
${methodButton({ action: `${base}/${hook.id}`, method: 'delete', csrfToken: page.csrfToken, label: 'Remove' })}</div></li>`,
      )}</ul>`
}
<p class="muted">Deliveries are queued and retried; each hook's Edit page lists its recent ones. Test sends a push event of the default branch at once and shows the answer.</p>`;
  return settingsFrame(project, 'hooks', body, settings.notice);
}

/** `…/hooks/:id/edit`. */
export function editHookPage(
  page: PageContext,
  project: Project,
  hook: ProjectHook,
  form: { values: HookValues; errors?: FieldErrors; deliveries?: SafeHtml },
): SafeHtml {
  const action = `${projectPath(project)}/hooks/${hook.id}`;
  const body = html`<h2>Edit webhook</h2>
${otherErrors(form.errors, ['url', 'token'])}
<form class="stacked" method="post" action="${action}">
${hiddenToken(page.csrfToken)}<input type="hidden" name="_method" value="patch">
${hookFields(form.values, form.errors, true)}
<button type="submit" class="primary">Save changes</button>
</form>
${form.deliveries}`;
  return settingsFrame(project, 'hooks', body);
}
