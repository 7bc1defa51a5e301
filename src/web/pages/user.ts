import { html, type SafeHtml } from '../html';
import type { User } from '../../services/users/users';
import type { Project } from '../../services/projects/types';
import { projectList } from './project-list';

export function userPage(user: User, projects: Project[]): SafeHtml {
  return html`<h1>${user.name}</h1>
<p class="muted">@${user.username}</p>
<h2>Projects</h2>
${projectList(projects, 'No projects to show.')}`;
}
