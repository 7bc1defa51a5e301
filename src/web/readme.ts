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

/** Renderings kept: a blob is immutable, so each is kept by its id and where it is shown (its links depend on it). */
const KEPT = 256;

/** The README of a tree's root, as GitLab chooses it: Markdown first, then any other. */
export function pickReadme(entries: TreeEntry[]): TreeEntry | undefined {
  const readmes = entries.filter((entry) => entry.type === 'blob' && README.test(entry.name));
  return readmes.find((entry) => MARKDOWN.test(entry.name)) ?? readmes[0];
}

/** READMEs rendered, the few hundred most recent kept; one per web door, made where the door is registered. */
export class ReadmeRenderer {
  private readonly rendered = new Map<string, SafeHtml>();

  constructor(private readonly services: Services) {}

  /** The README read at `commitId`; its relative links point at `shownRef`, the ref the page is shown at. */
  async render(project: Project, commitId: string, shownRef: string, entry: TreeEntry): Promise<SafeHtml> {
    const relativeTo = { projectPath: projectPath(project), ref: shownRef, folder: folderOf(entry.path) };
    const key = [entry.id, relativeTo.projectPath, shownRef, entry.path].join('\0');
    const kept = this.rendered.get(key);
    if (kept) return kept;
    const blob = await this.services.repositoryReads.blobAt(project, commitId, entry.path);
    if (blob.body instanceof Readable || blob.size > README_MAX_BYTES) {
      if (blob.body instanceof Readable) blob.body.destroy();
      return html`<p class="muted">${entry.name} is too large to show here.</p>`;
    }
    const text = blob.body.toString('utf8');
    return this.remember(key, MARKDOWN.test(entry.name) ? renderMarkdown(text, undefined, relativeTo) : html`<pre>${text}</pre>`);
  }

  private remember(id: string, body: SafeHtml): SafeHtml {
    if (this.rendered.size >= KEPT) this.rendered.delete(this.rendered.keys().next().value!);
    this.rendered.set(id, body);
    return body;
  }
}
