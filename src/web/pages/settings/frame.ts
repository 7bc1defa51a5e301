import { html, type SafeHtml } from '../../html';
import type { Project } from '../../../services/projects/types';
import { projectPath } from '../../paths';
import { projectNav } from '../project-nav';

/** A settings section: its key, its label and its path under the project. */
const SECTIONS = [
  { key: 'general', label: 'General', path: '/edit' },
  { key: 'members', label: 'Members', path: '/project_members' },
  { key: 'protected_branches', label: 'Protected branches', path: '/protected_branches' },
  { key: 'deploy_keys', label: 'Deploy keys', path: '/deploy_keys' },
  { key: 'hooks', label: 'Webhooks', path: '/hooks' },
  { key: 'variables', label: 'Variables', path: '/variables' },
  { key: 'triggers', label: 'Triggers', path: '/triggers' },
  { key: 'runners', label: 'Runners', path: '/runners' },
] as const;

export type SettingsSection = (typeof SECTIONS)[number]['key'];

/**
 * The top of every settings page: the project's tabs with Settings current (only those who
 * administer the project reach these pages, and they read its code), then the sections.
 */
export function settingsFrame(project: Project, section: SettingsSection, body: SafeHtml, notice?: string): SafeHtml {
  const base = projectPath(project);
  return html`<h1><a href="${base}">${project.namespace.name} / ${project.name}</a></h1>
${projectNav(project, 'settings', { codeReadable: true, admin: true })}
<nav class="tabs" aria-label="Settings">
${SECTIONS.map(
  (entry) => html`<a href="${base}${entry.path}"${entry.key === section ? html` aria-current="page"` : ''}>${entry.label}</a>
`,
)}</nav>
${notice && html`<p class="notice" role="status">${notice}</p>`}
${body}`;
}

/** A button that sends a form with Rails' `_method` (a form can only POST), with the page's token. */
export function methodButton(options: { action: string; method: 'delete' | 'patch' | 'post'; csrfToken: string; label: string }): SafeHtml {
  return html`<form class="inline" method="post" action="${options.action}">
<input type="hidden" name="authenticity_token" value="${options.csrfToken}">${
    options.method === 'post' ? '' : html`<input type="hidden" name="_method" value="${options.method}">`
  }<button type="submit">${options.label}</button>
</form>`;
}
