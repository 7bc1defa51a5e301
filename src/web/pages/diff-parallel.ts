import { escapeHtml, trusted, type SafeHtml } from '../html';
import type { DiffFile } from '../../git/diff-types';
import { commentLink, type DiffLine, type LineComments } from './diff';

/** One row of the side-by-side view: the old side, the new side, or both for an unchanged line. */
interface Pair {
  left?: DiffLine;
  right?: DiffLine;
}

/**
 * The lines side by side, as GitLab's parallel view pairs them: an unchanged line on both sides,
 * a run of removed lines beside the run of added lines that follows it, row by row.
 */
export function pairLines(lines: DiffLine[]): Array<Pair | DiffLine> {
  const rows: Array<Pair | DiffLine> = [];
  let removed: DiffLine[] = [];
  let added: DiffLine[] = [];
  const flush = () => {
    for (let n = 0; n < Math.max(removed.length, added.length); n++) rows.push({ left: removed[n], right: added[n] });
    removed = [];
    added = [];
  };
  for (const line of lines) {
    if (line.kind === 'del') {
      if (added.length > 0) flush();
      removed.push(line);
    } else if (line.kind === 'add') added.push(line);
    else {
      flush();
      rows.push(line.kind === 'context' ? { left: line, right: line } : line);
    }
  }
  flush();
  return rows;
}

/**
 * The side-by-side table: old line number and text, new line number and text. A removed line is
 * commented on its old side, an added or unchanged one on its new side; what is drawn under a
 * line sits on its side of the row below.
 */
export function parallelTable(file: DiffFile, lines: DiffLine[], comments?: LineComments): SafeHtml {
  let rows = '';
  for (const row of pairLines(lines)) {
    if ('kind' in row) {
      rows += `<tr class="${row.kind}"><td class="num"></td><td class="src" colspan="3">${escapeHtml(row.text)}</td></tr>`;
      continue;
    }
    const { left, right } = row;
    const unchanged = left !== undefined && left === right;
    const leftCode = left && !unchanged ? comments?.code(file, left.oldLine ?? null, null) : undefined;
    const rightCode = right ? comments?.code(file, right.oldLine ?? null, right.newLine ?? null) : undefined;
    const leftLink = left && !unchanged ? commentLink(comments, leftCode, `Comment on old line ${left.oldLine}`) : '';
    const rightLink = right ? commentLink(comments, rightCode, `Comment on line ${right.newLine}`) : '';
    const side = (line: DiffLine | undefined, kind: string) =>
      line ? `<td class="src ${unchanged ? 'context' : kind}">${escapeHtml(line.text)}</td>` : '<td class="src empty"></td>';
    rows += `<tr class="parallel">`;
    rows += `<td class="num"${leftCode ? ` id="${leftCode}"` : ''}>${leftLink}${left?.oldLine ?? ''}</td>${side(left, 'del')}`;
    rows += `<td class="num"${rightCode ? ` id="${rightCode}"` : ''}>${rightLink}${right?.newLine ?? ''}</td>${side(right, 'add')}</tr>`;
    const below = (code: string | undefined) => (code === undefined ? undefined : comments?.below(code));
    const [under, over] = [below(leftCode), below(rightCode)];
    if (under || over) rows += `<tr class="line-notes"><td colspan="2">${under ?? ''}</td><td colspan="2">${over ?? ''}</td></tr>`;
  }
  return trusted(`<table class="diff parallel"><tbody>${rows}</tbody></table>`);
}
