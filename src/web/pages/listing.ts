import { html, type SafeHtml } from '../html';
import type { Project } from '../../services/projects/types';
import { projectList } from './project-list';

/** `/` and `/explore/projects`: a heading and a list of projects. */
export function projectsPage(heading: string, projects: Project[], empty: string, actions?: SafeHtml): SafeHtml {
  return html`<h1>${heading}</h1>
${actions && html`<div class="actions">${actions}</div>`}
${projectList(projects, empty)}`;
}
