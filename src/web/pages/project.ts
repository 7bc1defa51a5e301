import { html, type SafeHtml } from '../html';
import type { Project } from '../../services/projects/types';
import type { Commit } from '../../git/objects';
import { projectPath, visibilityName } from '../paths';
import { encodeSegments } from './repository/urls';
import { projectNav } from './project-nav';
import type { Level } from '../../services/notifications/levels';
import { levelForm } from './notifications/levels';
import { joiningActions, type Joining } from './access-requests';

export interface ProjectHome {
  project: Project;
  urls: { http: string; ssh: string };
  /** Undefined when the caller may not read the code, or the repository is empty. */
  lastCommit?: Commit;
  /** Whether the caller may read the repository at all (guests of private projects may not). */
  codeReadable: boolean;
  readme?: { name: string; body: SafeHtml };
  /** The caller may administer the project (the Settings tab). */
  mayAdmin?: boolean;
  /** The caller may commit (a "New file" button) or fork (a "Fork" button). */
  mayPush?: boolean;
  mayFork?: boolean;
  /** The branch a new file goes to. */
  defaultRef?: string;
  /** Signed in: whether they starred it, for a Star or Unstar button (with the form's token). */
  star?: { starred: boolean; count: number; csrfToken: string };
  /** Signed in: the user's notification level for the project, for its control. */
  notification?: { level: Level; csrfToken: string };
  /** Signed in and not a member through the project's group: request access, withdraw it, or leave. */
  joining?: Joining;
}

export function projectPage(home: ProjectHome): SafeHtml {
  const { project, lastCommit, readme } = home;
  return html`<h1>${project.namespace.name} / ${project.name} <span class="badge">${visibilityName(project.visibility_level)}</span></h1>
${projectNav(project, 'home', { codeReadable: home.codeReadable, admin: home.mayAdmin })}
${project.description && html`<p class="description">${project.description}</p>`}
${projectActions(home)}
${home.codeReadable && cloneUrls(home.urls)}
${
  home.codeReadable &&
  (lastCommit
    ? html`<section class="commit" aria-label="Last commit"><strong>${lastCommit.title}</strong><br>
<code>${lastCommit.shortId}</code> <span class="muted">by ${lastCommit.author.name}, ${lastCommit.committer.date.slice(0, 10)}</span></section>`
    : html`<p class="muted">The repository for this project is empty.</p>`)
}
${readme && html`<article class="readme"><h2>${readme.name}</h2><div class="markdown">${readme.body}</div></article>`}`;
}

/** New file on the default branch (or the first one of an empty repository), and Fork. */
function projectActions(home: ProjectHome): SafeHtml | false {
  const { project } = home;
  const branch = home.defaultRef ?? project.default_branch ?? 'master';
  if (!home.mayPush && !home.mayFork && !home.star) return false;
  const notification =
    home.notification &&
    levelForm({
      action: `${projectPath(project)}/notification_setting`,
      current: home.notification.level,
      csrfToken: home.notification.csrfToken,
      id: 'notification-level',
      label: 'Notifications',
    });
  const joining = joiningActions(
    { membersPath: `${projectPath(project)}/project_members`, takesRequests: project.request_access_enabled === 1, noun: 'project' },
    home.joining,
  );
  return html`<div class="actions">${home.star && starButton(projectPath(project), home.star)} ${notification || ''} ${joining || ''} ${
    home.mayPush && html`<a class="button" href="${projectPath(project)}/new/${encodeSegments(branch)}">New file</a>`
  }${home.mayFork && html` <a class="button" href="${projectPath(project)}/forks/new">Fork</a>`}</div>`;
}

function starButton(path: string, star: NonNullable<ProjectHome['star']>): SafeHtml {
  return html`<form method="post" action="${path}/toggle_star" class="inline">
<input type="hidden" name="authenticity_token" value="${star.csrfToken}">
<button type="submit">${star.starred ? 'Unstar' : 'Star'}</button> <span class="muted">${star.count}</span>
</form>`;
}

function cloneUrls(urls: { http: string; ssh: string }): SafeHtml {
  return html`<section class="clone" aria-label="Clone">
<div>HTTP: <code>${urls.http}</code></div>
<div>SSH: <code>${urls.ssh}</code></div>
</section>`;
}
