import { html, type SafeHtml } from '../html';
import type { Project } from '../../services/projects/types';
import { projectPath, visibilityName } from '../paths';

/** A list of projects, each with its namespace, visibility and description. */
export function projectList(projects: Project[], empty: string): SafeHtml {
  if (projects.length === 0) return html`<p class="muted">${empty}</p>`;
  return html`<ul class="projects">
${projects.map(
  (project) => html`<li><a href="${projectPath(project)}">${project.namespace.name} / ${project.name}</a>
<span class="badge">${visibilityName(project.visibility_level)}</span>
${project.description && html`<div class="muted">${project.description}</div>`}</li>
`,
)}</ul>`;
}
