import { html, type SafeHtml } from '../../html';
import type { Project } from '../../../services/projects/types';
import type { BlobContent } from '../../blob-render';
import { breadcrumbs, refSwitcher, repositoryHeader, type RefChoice } from './header';
import { editorUrl, refUrl } from './urls';
import { deleteFileForm } from '../create/editor';

export interface BlobView {
  project: Project;
  ref: string;
  path: string;
  size: number;
  refs: Pick<RefChoice, 'branches' | 'tags'>;
  /** An image is shown from its raw URL; anything else as rendered. */
  content: BlobContent | { kind: 'image' } | { kind: 'too-large'; lines?: number };
  /** A Markdown file, shown rendered unless `plain` (`?plain=1`). */
  markdown: boolean;
  plain: boolean;
  /** Given when the caller may push: Edit and Delete. */
  editor?: { csrfToken: string };
}

const sizeText = (bytes: number): string =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function contentOf(view: BlobView, raw: string): SafeHtml {
  const { content } = view;
  const name = view.path.slice(view.path.lastIndexOf('/') + 1);
  switch (content.kind) {
    case 'code':
      return content.body;
    case 'markdown':
      return html`<div class="markdown">${content.body}</div>`;
    case 'image':
      return html`<p class="image"><img src="${raw}" alt="${name}"></p>`;
    case 'binary':
      return html`<p class="download">This file is binary. <a href="${raw}" download>Download ${name}</a> (${sizeText(view.size)}).</p>`;
    case 'too-large':
      return html`<p class="download">This file is too large to show here${content.lines ? html` (${content.lines} lines)` : ''}. <a href="${raw}" download>Download ${name}</a> (${sizeText(view.size)}).</p>`;
  }
}

/** `…/blob/:ref/*path`: one file, its lines numbered and highlighted, Markdown rendered, images shown. */
export function blobPage(view: BlobView): SafeHtml {
  const { project, ref, path } = view;
  const raw = refUrl(project, 'raw', ref, path);
  const blobUrl = refUrl(project, 'blob', ref, path);
  return html`${repositoryHeader(project, 'files')}
<div class="repo-bar">
${refSwitcher(project, { ...view.refs, current: ref, destination: 'blob', path })}
${breadcrumbs(project, ref, path)}
</div>
<section class="blob" aria-label="File">
<header class="blob-head">
<span class="muted">${sizeText(view.size)}</span>
${
  view.markdown &&
  html`<span class="toggle">${view.plain ? html`<a href="${blobUrl}">Rendered</a> · <strong>Source</strong>` : html`<strong>Rendered</strong> · <a href="${blobUrl}?plain=1">Source</a>`}</span>`
}
<a href="${raw}">Raw</a>
<a href="${refUrl(project, 'blame', ref, path)}">Blame</a>
<a href="${refUrl(project, 'commits', ref, path)}">History</a>
${view.editor && html`<a class="button" href="${editorUrl(project, 'edit', ref, path)}">Edit</a>`}
</header>
${view.editor && deleteFileForm(view.editor, { action: blobUrl, fileName: path.slice(path.lastIndexOf('/') + 1), targetBranch: ref })}
${contentOf(view, raw)}
</section>`;
}
