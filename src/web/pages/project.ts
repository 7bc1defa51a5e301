import { html, type SafeHtml } from '../html';
import type { Project } from '../../services/projects/types';
import type { Commit } from '../../git/objects';
import { visibilityName } from '../paths';
import { projectNav } from './project-nav';

export interface ProjectHome {
  project: Project;
  urls: { http: string; ssh: string };
  /** Undefined when the caller may not read the code, or the repository is empty. */
  lastCommit?: Commit;
  /** Whether the caller may read the repository at all (guests of private projects may not). */
  codeReadable: boolean;
  readme?: { name: string; body: SafeHtml };
}

export function projectPage(home: ProjectHome): SafeHtml {
  const { project, lastCommit, readme } = home;
  return html`<h1>${project.namespace.name} / ${project.name} <span class="badge">${visibilityName(project.visibility_level)}</span></h1>
${projectNav(project, 'home', { codeReadable: home.codeReadable })}
${project.description && html`<p class="description">${project.description}</p>`}
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

function cloneUrls(urls: { http: string; ssh: string }): SafeHtml {
  return html`<section class="clone" aria-label="Clone">
<div>HTTP: <code>${urls.http}</code></div>
<div>SSH: <code>${urls.ssh}</code></div>
</section>`;
}
