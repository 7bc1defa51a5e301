import { html, type SafeHtml } from '../../html';
import type { PageContext } from '../../context';
import type { FieldErrors } from '../../form-errors';
import type { NamespaceRow, Project } from '../../../services/projects/types';
import { projectPath } from '../../paths';
import { formField, hiddenToken, otherErrors } from '../form-field';
import { selectField, textArea, visibilityField } from '../create/fields';
import { settingsFrame } from './frame';

/** The features a project turns on and off, as GitLab 8.12's settings page lists them. */
export const FEATURES = [
  ['issues_enabled', 'Issues'],
  ['merge_requests_enabled', 'Merge requests'],
  ['builds_enabled', 'Builds'],
  ['wiki_enabled', 'Wiki'],
  ['snippets_enabled', 'Snippets'],
  ['only_allow_merge_if_build_succeeds', 'Only allow merge requests to be merged if the build succeeds'],
  ['request_access_enabled', 'Allow users to request access'],
] as const;

export type FeatureName = (typeof FEATURES)[number][0];

/** What the general form shows: the project's values, or what was typed into a refused form. */
export interface GeneralValues {
  description?: string;
  defaultBranch?: string;
  visibilityLevel?: string;
  features: Record<FeatureName, boolean>;
}

export interface GeneralSettings {
  project: Project;
  branches: string[];
  /** Which owner-only fields and sections to offer. */
  mayChangeVisibility: boolean;
  mayRename: boolean;
  mayArchive: boolean;
  mayTransfer: boolean;
  mayRemove: boolean;
  namespaces: NamespaceRow[];
  /** The section a refused form came from, its values and messages. */
  general: GeneralValues;
  rename: { name?: string; path?: string };
  refused?: { section: 'general' | 'rename' | 'transfer' | 'remove'; errors: FieldErrors };
}

export const projectValues = (project: Project): GeneralValues => ({
  description: project.description ?? '',
  defaultBranch: project.default_branch ?? '',
  visibilityLevel: String(project.visibility_level),
  features: Object.fromEntries(FEATURES.map(([flag]) => [flag, project[flag] === 1])) as Record<FeatureName, boolean>,
});

/** `…/edit`: GitLab 8.12's project settings, each section its own form. */
export function generalSettingsPage(page: PageContext, settings: GeneralSettings): SafeHtml {
  const { project, refused } = settings;
  const base = projectPath(project);
  const errorsOf = (section: string) => (refused?.section === section ? refused.errors : undefined);
  const general = settings.general;
  const generalErrors = errorsOf('general');
  const body = html`<h2>General</h2>
${otherErrors(generalErrors, ['description', 'default_branch', 'visibility_level'])}
<form class="stacked" method="post" action="${base}/edit">
${hiddenToken(page.csrfToken)}<input type="hidden" name="_method" value="patch"><input type="hidden" name="section" value="general">
${textArea({ name: 'description', label: 'Description', value: general.description, errors: generalErrors })}
${
  settings.branches.length > 0
    ? selectField({
        name: 'default_branch',
        label: 'Default branch',
        choices: settings.branches.map((branch) => ({ value: branch, label: branch })),
        chosen: general.defaultBranch,
        errors: generalErrors,
      })
    : html`<p class="muted">The repository is empty: a default branch is chosen once it has one.</p>`
}
${
  settings.mayChangeVisibility
    ? visibilityField(general.visibilityLevel, generalErrors)
    : html`<p class="muted">Only the project's owner changes its visibility.</p>`
}
<fieldset><legend>Features</legend>${FEATURES.map(
    ([flag, label]) =>
      html`<label class="checkbox"><input type="checkbox" name="${flag}" value="1"${general.features[flag] ? ' checked' : ''}> ${label}</label><br>`,
  )}</fieldset>
<button type="submit" class="primary">Save changes</button>
</form>
${settings.mayArchive && archiveSection(page, project)}
${settings.mayRename && renameSection(page, settings, errorsOf('rename'))}
${settings.mayTransfer && transferSection(page, settings, errorsOf('transfer'))}
${settings.mayRemove && removeSection(page, project, errorsOf('remove'))}`;
  return settingsFrame(project, 'general', body);
}

function archiveSection(page: PageContext, project: Project): SafeHtml {
  const archived = project.archived === 1;
  return html`<h2>${archived ? 'Unarchive project' : 'Archive project'}</h2>
<p class="muted">${archived ? 'The project takes pushes, issues and merge requests again.' : 'An archived project is read-only: no pushes, no new merge requests.'}</p>
<form method="post" action="${projectPath(project)}/${archived ? 'unarchive' : 'archive'}">
${hiddenToken(page.csrfToken)}<button type="submit">${archived ? 'Unarchive' : 'Archive'} project</button>
</form>`;
}

function renameSection(page: PageContext, settings: GeneralSettings, errors: FieldErrors | undefined): SafeHtml {
  const { project, rename } = settings;
  return html`<h2>Rename repository</h2>
${otherErrors(errors, ['name', 'path'])}
<form class="stacked" method="post" action="${projectPath(project)}/edit">
${hiddenToken(page.csrfToken)}<input type="hidden" name="_method" value="patch"><input type="hidden" name="section" value="rename">
${formField({ name: 'name', label: 'Project name', value: rename.name ?? project.name, errors, required: true })}
${formField({ name: 'path', label: 'Path', value: rename.path ?? project.path, errors, required: true })}
<p class="muted">A new path changes the project's URL and its clone URLs.</p>
<button type="submit">Rename project</button>
</form>`;
}

function transferSection(page: PageContext, settings: GeneralSettings, errors: FieldErrors | undefined): SafeHtml {
  const { project } = settings;
  const choices = settings.namespaces.filter((namespace) => namespace.id !== project.namespace_id);
  return html`<h2>Transfer project</h2>
${otherErrors(errors, ['namespace'])}
${
  choices.length === 0
    ? html`<p class="muted">There is no other namespace you may move this project to.</p>`
    : html`<form class="stacked" method="post" action="${projectPath(project)}/transfer">
${hiddenToken(page.csrfToken)}
${selectField({
  name: 'new_namespace_id',
  label: 'Namespace',
  errorKey: 'namespace',
  choices: choices.map((namespace) => ({ value: String(namespace.id), label: namespace.path })),
  errors,
})}
<button type="submit">Transfer project</button>
</form>`
}`;
}

function removeSection(page: PageContext, project: Project, errors: FieldErrors | undefined): SafeHtml {
  return html`<h2>Remove project</h2>
<p>Removing the project removes its repository and everything attached to it: issues, merge requests, builds. It cannot be undone.</p>
<form class="stacked" method="post" action="${projectPath(project)}/edit">
${hiddenToken(page.csrfToken)}<input type="hidden" name="_method" value="delete">
${formField({ name: 'confirm_path', label: `Type ${project.path} to confirm`, errors, required: true, autocomplete: 'off' })}
<button type="submit" class="danger">Remove project</button>
</form>`;
}
