import { html, type SafeHtml } from '../html';
import type { Project } from '../../services/projects/types';
import { projectPath } from '../paths';

/** A project's tabs; `current` names the one shown (its link says so to assistive technology). */
export function projectNav(project: Project, current: string): SafeHtml {
  const base = projectPath(project);
  const tabs: Array<[string, string]> = [
    ['Project', base],
    ['Pipelines', `${base}/pipelines`],
  ];
  return html`<nav class="project-nav" aria-label="Project">${tabs.map(
    ([label, href]) => html`<a href="${href}"${label === current ? html` aria-current="page"` : ''}>${label}</a>`,
  )}</nav>`;
}
