import { html, type SafeHtml } from '../html';
import type { Group } from '../../services/groups/groups';
import type { Project } from '../../services/projects/types';
import { projectList } from './project-list';

export function groupPage(group: Group, projects: Project[], shared: Project[], options: { mayCreate?: boolean } = {}): SafeHtml {
  return html`<h1>${group.name}</h1>
<p class="muted">@${group.path}</p>
${options.mayCreate && html`<div class="actions"><a class="button" href="/projects/new?namespace_id=${String(group.id)}">New project</a></div>`}
${group.description && html`<p>${group.description}</p>`}
<h2>Projects</h2>
${projectList(projects, 'No projects to show.')}
${shared.length > 0 && html`<h2>Shared projects</h2>${projectList(shared, '')}`}`;
}
