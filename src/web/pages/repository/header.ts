import { html, type SafeHtml } from '../../html';
import type { Project } from '../../../services/projects/types';
import { projectPath, visibilityName } from '../../paths';
import { SCRIPT_PATH, SCRIPT_VERSION } from '../../script';
import { projectNav, type ProjectTab } from '../project-nav';
import { refUrl } from './urls';

/** The project's name and tabs, above every repository page (whose readers may read the code). */
export function repositoryHeader(project: Project, active: ProjectTab): SafeHtml {
  return html`<h1><a href="${projectPath(project)}">${project.namespace.name} / ${project.name}</a> <span class="badge">${visibilityName(project.visibility_level)}</span></h1>
${projectNav(project, active, { codeReadable: true })}`;
}

export interface RefChoice {
  branches: string[];
  tags: string[];
  /** The ref shown now: a branch, a tag or a sha. */
  current: string;
  /** The page to open at the chosen ref, and the path in it. */
  destination: 'tree' | 'blob' | 'commits' | 'blame';
  path: string;
}

/** A GET form (works without JavaScript); the site's script sends it as soon as the choice changes. */
export function refSwitcher(project: Project, choice: RefChoice): SafeHtml {
  const known = choice.branches.includes(choice.current) || choice.tags.includes(choice.current);
  const option = (name: string) => html`<option value="${name}"${name === choice.current ? html` selected` : ''}>${name}</option>`;
  return html`<form class="ref-switcher" method="get" action="${projectPath(project)}/refs/switch">
<input type="hidden" name="destination" value="${choice.destination}">
<input type="hidden" name="path" value="${choice.path}">
<label for="ref-select">Branch or tag</label>
<select id="ref-select" name="ref" data-autosubmit>
${!known && html`<option value="${choice.current}" selected>${choice.current.slice(0, 8)}</option>`}
<optgroup label="Branches">${choice.branches.map(option)}</optgroup>
${choice.tags.length > 0 && html`<optgroup label="Tags">${choice.tags.map(option)}</optgroup>`}
</select>
<button type="submit">Switch</button>
</form>
<script src="${SCRIPT_PATH}?v=${SCRIPT_VERSION}" defer></script>`;
}

/** The path from the repository's root, each folder a link to its tree. */
export function breadcrumbs(project: Project, ref: string, path: string): SafeHtml {
  const segments = path === '' ? [] : path.split('/');
  return html`<nav class="crumbs" aria-label="Breadcrumb"><a href="${refUrl(project, 'tree', ref)}">${project.path}</a>${segments.map(
    (segment, index) =>
      index === segments.length - 1
        ? html` / <span aria-current="page">${segment}</span>`
        : html` / <a href="${refUrl(project, 'tree', ref, segments.slice(0, index + 1).join('/'))}">${segment}</a>`,
  )}</nav>`;
}
