import { html, type SafeHtml } from '../html';
import type { Group } from '../../services/groups/groups';
import type { Project } from '../../services/projects/types';
import { projectList } from './project-list';
import type { Level } from '../../services/notifications/levels';
import { levelForm } from './notifications/levels';

export interface GroupPageOptions {
  mayCreate?: boolean;
  /** Signed in: the user's notification level for the group, for its control. */
  notification?: { level: Level; csrfToken: string };
}

export function groupPage(group: Group, projects: Project[], shared: Project[], options: GroupPageOptions = {}): SafeHtml {
  const { notification } = options;
  return html`<h1>${group.name}</h1>
<p class="muted">@${group.path}</p>
${
  (options.mayCreate || notification) &&
  html`<div class="actions">${options.mayCreate && html`<a class="button" href="/projects/new?namespace_id=${String(group.id)}">New project</a>`} ${
    notification &&
    levelForm({
      action: `/groups/${encodeURIComponent(group.path)}/notification_setting`,
      current: notification.level,
      csrfToken: notification.csrfToken,
      id: 'notification-level',
      label: 'Notifications',
    })
  }</div>`
}
${group.description && html`<p>${group.description}</p>`}
<h2>Projects</h2>
${projectList(projects, 'No projects to show.')}
${shared.length > 0 && html`<h2>Shared projects</h2>${projectList(shared, '')}`}`;
}
