import { html, type SafeHtml } from '../../html';
import type { PageContext } from '../../context';
import type { FieldErrors } from '../../form-errors';
import type { Group } from '../../../services/groups/groups';
import type { Project } from '../../../services/projects/types';
import { groupPath } from '../../group-scope';
import { projectPath, visibilityName } from '../../paths';
import { formField, hiddenToken, otherErrors } from '../form-field';
import { textArea, visibilityField } from '../create/fields';
import { pager } from '../pager';
import { groupHeader } from './nav';

/** What the settings form shows: the group's values, or what was typed into a refused form. */
export interface GroupValues {
  name: string;
  path: string;
  description: string;
  visibilityLevel: string;
  requestAccess: boolean;
  lfs: boolean;
}

export const groupValues = (group: Group): GroupValues => ({
  name: group.name,
  path: group.path,
  description: group.description ?? '',
  visibilityLevel: String(group.visibility_level),
  requestAccess: group.request_access_enabled === 1,
  lfs: group.lfs_enabled === 1,
});

export interface GroupSettings {
  group: Group;
  values: GroupValues;
  /** Git LFS is on for the instance: only then is the group's switch offered. */
  lfsAvailable: boolean;
  refused?: { section: 'general' | 'remove'; errors: FieldErrors };
}

function settingsFrame(group: Group, section: 'general' | 'projects', body: SafeHtml): SafeHtml {
  const base = groupPath(group);
  return html`${groupHeader(group, 'settings', { owner: true })}
<nav class="tabs" aria-label="Settings">
<a href="${base}/edit"${section === 'general' ? html` aria-current="page"` : ''}>General</a>
<a href="${base}/projects"${section === 'projects' ? html` aria-current="page"` : ''}>Projects</a>
</nav>
${body}`;
}

const checkbox = (name: string, label: string, checked: boolean) =>
  html`<label class="checkbox"><input type="checkbox" name="${name}" value="1"${checked ? ' checked' : ''}> ${label}</label><br>`;

/** `/groups/:path/edit`: GitLab 8.12's group settings, then its removal with the path typed. */
export function groupSettingsPage(page: PageContext, settings: GroupSettings): SafeHtml {
  const { group, values, refused } = settings;
  const base = groupPath(group);
  const errors = refused?.section === 'general' ? refused.errors : undefined;
  const removeErrors = refused?.section === 'remove' ? refused.errors : undefined;
  const body = html`<h2>Group settings</h2>
${otherErrors(errors, ['name', 'path', 'description', 'visibility_level'])}
<form class="stacked" method="post" action="${base}">
${hiddenToken(page.csrfToken)}<input type="hidden" name="_method" value="patch">
${formField({ name: 'name', label: 'Group name', value: values.name, errors, required: true })}
${formField({ name: 'path', label: 'Group path', value: values.path, errors, required: true })}
<p class="muted">A new path changes the URL of the group and of every project in it, and their clone URLs.</p>
${textArea({ name: 'description', label: 'Description', value: values.description, errors })}
${visibilityField(values.visibilityLevel, errors)}
<fieldset><legend>Access and storage</legend>
${checkbox('request_access_enabled', 'Allow users to request access', values.requestAccess)}
${settings.lfsAvailable && checkbox('lfs_enabled', 'Allow projects in this group to use Git LFS', values.lfs)}
</fieldset>
<button type="submit" class="primary">Save group</button>
</form>
<h2>Remove group</h2>
<p>Removing the group removes all its projects, their repositories and everything attached to them. It cannot be undone.</p>
<form class="stacked" method="post" action="${base}">
${hiddenToken(page.csrfToken)}<input type="hidden" name="_method" value="delete">
${formField({ name: 'confirm_path', label: `Type ${group.path} to confirm`, errors: removeErrors, required: true, autocomplete: 'off' })}
<button type="submit" class="danger">Remove group</button>
</form>`;
  return settingsFrame(group, 'general', body);
}

/** `/groups/:path/projects`: the group's own projects, each with the way to its settings. */
export function groupProjectsSettingsPage(
  group: Group,
  list: { projects: Project[]; total: number; page: number; perPage: number },
): SafeHtml {
  const body = html`<h2>Projects <span class="badge">${String(list.total)}</span></h2>
${
  list.projects.length === 0
    ? html`<p class="muted">The group has no projects.</p>`
    : html`<ul class="projects">${list.projects.map(
        (
          project,
        ) => html`<li><a href="${projectPath(project)}">${project.name}</a> <span class="badge">${visibilityName(project.visibility_level)}</span>
<a class="button" href="${projectPath(project)}/edit">Settings of ${project.name}</a> <a class="button" href="${projectPath(project)}/project_members">Members of ${project.name}</a></li>
`,
      )}</ul>`
}
${pager(`${groupPath(group)}/projects`, list.page, list.perPage, list.total)}`;
  return settingsFrame(group, 'projects', body);
}
