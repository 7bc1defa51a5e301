import { Readable } from 'node:stream';
import type { Services } from '../services/index';
import type { Project } from '../services/projects/types';
import type { TreeEntry } from '../git/tree';
import { html, type SafeHtml } from './html';
import { renderMarkdown } from './markdown';
import { projectPath } from './paths';
import { folderOf } from './relative-links';

/** Past this a README is linked, not rendered (GitLab's blob viewer has a like limit). */
const README_MAX_BYTES = 512 * 1024;
const MARKDOWN = /\.(md|markdown|mdown|mkdn|mkd)$/i;
const README = /^readme(\.[\w-]+)?$/i;

/** A blob is immutable: its rendering is kept by its id and where it is shown (its links depend on it), a few hundred, the most recent. */
const rendered = new Map<string, SafeHtml>();
const KEPT = 256;

function remember(id: string, body: SafeHtml): SafeHtml {
  if (rendered.size >= KEPT) rendered.delete(rendered.keys().next().value!);
  rendered.set(id, body);
  return body;
}

/** The README of a tree's root, as GitLab chooses it: Markdown first, then any other. */
export function pickReadme(entries: TreeEntry[]): TreeEntry | undefined {
  const readmes = entries.filter((entry) => entry.type === 'blob' && README.test(entry.name));
  return readmes.find((entry) => MARKDOWN.test(entry.name)) ?? readmes[0];
}

/** The README read at `commitId`; its relative links point at `shownRef`, the ref the page is shown at. */
export async function renderReadme(
  services: Services,
  project: Project,
  commitId: string,
  shownRef: string,
  entry: TreeEntry,
): Promise<SafeHtml> {
  const relativeTo = { projectPath: projectPath(project), ref: shownRef, folder: folderOf(entry.path) };
  const key = [entry.id, relativeTo.projectPath, shownRef, entry.path].join('\0');
  const kept = rendered.get(key);
  if (kept) return kept;
  const blob = await services.repositoryReads.blobAt(project, commitId, entry.path);
  if (blob.body instanceof Readable || blob.size > README_MAX_BYTES) {
    if (blob.body instanceof Readable) blob.body.destroy();
    return html`<p class="muted">${entry.name} is too large to show here.</p>`;
  }
  const text = blob.body.toString('utf8');
  return remember(key, MARKDOWN.test(entry.name) ? renderMarkdown(text, undefined, relativeTo) : html`<pre>${text}</pre>`);
}
