import { ImmutableCache } from '../git/immutable-cache';
import { trusted, type SafeHtml } from './html';
import { highlightLines } from './highlight';
import { renderMarkdown } from './markdown';
import type { RelativeBase } from './relative-links';

/** What a blob page shows in place of the file's bytes. */
export type BlobContent =
  | { kind: 'code'; body: SafeHtml; lines: number }
  | { kind: 'markdown'; body: SafeHtml }
  | { kind: 'binary' }
  | { kind: 'too-large'; lines: number };

/** Past these a file is offered for download instead of shown (GitLab's viewer has like limits). */
export const BLOB_MAX_BYTES = 1024 * 1024;
export const BLOB_MAX_LINES = 10_000;

export interface RenderRequest {
  /** The blob's id: its content never changes, so its rendering is kept by it. */
  blobId: string;
  /** Markdown rendered, or the source highlighted in `language`. */
  view: 'markdown' | 'source';
  language: string | undefined;
  /** Where the file is shown, which its Markdown's relative links resolve against (part of the kept rendering's key). */
  relativeTo: RelativeBase;
  /** The bytes, read only when the rendering is not kept. */
  read: () => Promise<{ content: Buffer; binary: boolean }>;
}

/** Line numbers that are anchors (`#L12`), beside the highlighted lines. Built as one string: a file may have thousands. */
export function codeTable(lines: string[]): SafeHtml {
  let rows = '';
  for (let index = 0; index < lines.length; index++) {
    const number = index + 1;
    rows += `<tr id="L${number}"><td class="num"><a href="#L${number}">${number}</a></td><td class="src"><code>${lines[index]}</code></td></tr>`;
  }
  return trusted(`<table class="code"><tbody>${rows}</tbody></table>`);
}

/** Highlighted and rendered blobs, the most recent kept (up to 500 of them or 64 MiB). One per app. */
export class BlobRenderer {
  private readonly kept = new ImmutableCache<BlobContent>({
    maxEntries: 500,
    maxBytes: 64 * 1024 * 1024,
    weigh: (content) => 200 + ('body' in content ? 2 * content.body.value.length : 0),
  });

  render(request: RenderRequest): Promise<BlobContent> {
    const { relativeTo } = request;
    // Only Markdown depends on where it is shown; highlighted source is the same everywhere.
    const where = request.view === 'markdown' ? `\0${relativeTo.projectPath}\0${relativeTo.ref}\0${relativeTo.folder}` : '';
    return this.kept.get(`${request.blobId}\0${request.view}\0${request.language ?? ''}${where}`, async () => {
      const { content, binary } = await request.read();
      if (binary) return { kind: 'binary' };
      const text = content.toString('utf8');
      let lines = 0;
      for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) lines++;
      if (lines > BLOB_MAX_LINES) return { kind: 'too-large', lines };
      if (request.view === 'markdown') return { kind: 'markdown', body: renderMarkdown(text, undefined, relativeTo) };
      const highlighted = highlightLines(text, request.language);
      return { kind: 'code', body: codeTable(highlighted), lines: highlighted.length };
    });
  }
}
