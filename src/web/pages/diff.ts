import { html, trusted, escapeHtml, type SafeHtml } from '../html';
import type { DiffFile } from '../../git/diff-types';
import { parallelTable } from './diff-parallel';

/*
 * The changes of a commit, a comparison or a merge request, from the diff records the services
 * give (`DiffFile`: each file's unified diff text). Files are `<details>` elements, so a large one
 * is collapsed and opens with a click, without JavaScript.
 */

export interface DiffOptions {
  /** The service cut the diff short (too many files or lines): files without text say so. */
  overflow?: boolean;
  /** A file with more diff lines than this starts collapsed. */
  collapseLines?: number;
  /** Past this many lines shown in all, the remaining files start collapsed. */
  budgetLines?: number;
  /** Line comments (a merge request's Changes tab): each line's link, and what is drawn under it. */
  comments?: LineComments;
  /** Old and new side by side (`parallel`), or one column of both (`inline`, the default): GitLab's two diff views. */
  view?: DiffView;
}

export type DiffView = 'inline' | 'parallel';

/** What a diff line may carry: a link to comment on it, and rows under it (comments, a form). */
export interface LineComments {
  /** The line's code, its anchor (`positionLineCode`). */
  code(file: DiffFile, oldLine: number | null, newLine: number | null): string;
  /** Where the line's "comment" link leads, or undefined when the reader may not comment. */
  href(code: string): string | undefined;
  /** Already-escaped HTML under the line, or undefined. */
  below(code: string): string | undefined;
}

const COLLAPSE_LINES = 500;
const BUDGET_LINES = 5000;

type LineKind = 'hunk' | 'add' | 'del' | 'context' | 'note';

export interface DiffLine {
  kind: LineKind;
  oldLine?: number;
  newLine?: number;
  text: string;
}

/** The lines of a file's unified diff after its `---`/`+++` header, numbered on both sides. */
export function diffLines(diff: string): DiffLine[] {
  const lines: DiffLine[] = [];
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  const texts = diff.split('\n');
  if (texts[texts.length - 1] === '') texts.pop();
  for (const text of texts) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      inHunk = true;
      lines.push({ kind: 'hunk', text });
    } else if (!inHunk) {
    } else if (text.startsWith('+')) {
      lines.push({ kind: 'add', newLine: newLine++, text });
    } else if (text.startsWith('-')) {
      lines.push({ kind: 'del', oldLine: oldLine++, text });
    } else if (text.startsWith('\\')) {
      lines.push({ kind: 'note', text });
    } else {
      lines.push({ kind: 'context', oldLine: oldLine++, newLine: newLine++, text });
    }
  }
  return lines;
}

function status(file: DiffFile): string | undefined {
  if (file.newFile) return 'new file';
  if (file.deletedFile) return 'deleted';
  if (file.renamedFile) return 'renamed';
  if (file.aMode !== file.bMode && file.aMode !== '0' && file.bMode !== '0') return 'mode changed';
  return undefined;
}

function fileName(file: DiffFile): SafeHtml {
  if (file.renamedFile && file.oldPath !== file.newPath) return html`${file.oldPath} → ${file.newPath}`;
  return html`${file.deletedFile ? file.oldPath : file.newPath}`;
}

/** A line's "comment" link, or nothing when the reader may not comment. */
export function commentLink(comments: LineComments | undefined, code: string | undefined, label: string): string {
  const href = code === undefined ? undefined : comments?.href(code);
  return href ? `<a class="line-comment" href="${escapeHtml(href)}" data-line-code="${code}" aria-label="${escapeHtml(label)}">+</a>` : '';
}

/** Rows built as one string: a large diff has thousands of them. */
function table(file: DiffFile, lines: DiffLine[], comments?: LineComments): SafeHtml {
  let rows = '';
  for (const line of lines) {
    if (line.kind === 'hunk' || line.kind === 'note') {
      rows += `<tr class="${line.kind}"><td class="num"></td><td class="num"></td><td class="src">${escapeHtml(line.text)}</td></tr>`;
      continue;
    }
    const code = comments?.code(file, line.oldLine ?? null, line.newLine ?? null);
    const link = commentLink(comments, code, `Comment on line ${line.newLine ?? line.oldLine}`);
    rows += `<tr class="${line.kind}"${code ? ` id="${code}"` : ''}><td class="num">${link}${line.oldLine ?? ''}</td><td class="num">${line.newLine ?? ''}</td><td class="src">${escapeHtml(line.text)}</td></tr>`;
    const below = code === undefined ? undefined : comments?.below(code);
    if (below) rows += `<tr class="line-notes"><td colspan="3">${below}</td></tr>`;
  }
  return trusted(`<table class="diff"><tbody>${rows}</tbody></table>`);
}

function fileBody(file: DiffFile, lines: DiffLine[], options: DiffOptions): SafeHtml {
  const { overflow = false, comments } = options;
  if (file.diff.startsWith('Binary files')) return html`<p class="muted diff-note">Binary file not shown.</p>`;
  if (lines.length > 0) return options.view === 'parallel' ? parallelTable(file, lines, comments) : table(file, lines, comments);
  if (overflow && file.additions + file.deletions > 0) return html`<p class="muted diff-note">This diff is too large to show here.</p>`;
  if (file.renamedFile) return html`<p class="muted diff-note">File moved without changes.</p>`;
  if (file.aMode !== file.bMode) return html`<p class="muted diff-note">File mode changed from ${file.aMode} to ${file.bMode}.</p>`;
  return html`<p class="muted diff-note">No changes to show.</p>`;
}

/** Every changed file: a list of them, then each file's name, status, counts and lines. */
export function renderDiff(files: DiffFile[], options: DiffOptions = {}): SafeHtml {
  if (files.length === 0) return html`<p class="muted">No changes.</p>`;
  const collapseLines = options.collapseLines ?? COLLAPSE_LINES;
  let budget = options.budgetLines ?? BUDGET_LINES;
  const additions = files.reduce((sum, file) => sum + file.additions, 0);
  const deletions = files.reduce((sum, file) => sum + file.deletions, 0);
  return html`<section class="diffs" aria-label="Changes">
<p>Showing <strong>${files.length} changed ${files.length === 1 ? 'file' : 'files'}</strong> with
<span class="additions">${additions} additions</span> and <span class="deletions">${deletions} deletions</span>.</p>
${options.overflow && html`<p class="flash" role="status">This diff is too large: some files are not shown in full.</p>`}
<ol class="diff-files">${files.map((file, index) => html`<li><a href="#diff-${index}">${fileName(file)}</a></li>`)}</ol>
${files.map((file, index) => {
  const lines = diffLines(file.diff);
  const large = lines.length > collapseLines || budget <= 0;
  budget -= lines.length;
  const label = status(file);
  return html`<details class="diff-file" id="diff-${index}"${large ? '' : html` open`}>
<summary><strong>${fileName(file)}</strong>${label && html` <span class="badge">${label}</span>`}
<span class="additions">+${file.additions}</span> <span class="deletions">−${file.deletions}</span>${large && html` <span class="muted">(collapsed: ${lines.length} lines, open to show)</span>`}</summary>
${fileBody(file, lines, options)}
</details>
`;
})}</section>`;
}
