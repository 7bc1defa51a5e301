import type HighlightJs from 'highlight.js';
import { lazyPackage } from '../lib/lazy-package';
import { escapeHtml } from './html';

export const highlightJs = lazyPackage<typeof HighlightJs>('highlight.js');

/** Files known by their whole name rather than their extension. */
const BY_NAME: Record<string, string> = {
  makefile: 'makefile',
  gnumakefile: 'makefile',
  dockerfile: 'dockerfile',
  gemfile: 'ruby',
  rakefile: 'ruby',
  vagrantfile: 'ruby',
  'cmakelists.txt': 'cmake',
  '.gitignore': 'plaintext',
};

/** The highlight.js language a file's name says, or undefined (shown as plain text: never guessed, guessing is slow). */
export function languageOf(fileName: string): string | undefined {
  const name = fileName.toLowerCase();
  if (BY_NAME[name]) return BY_NAME[name] === 'plaintext' ? undefined : BY_NAME[name];
  const dot = name.lastIndexOf('.');
  if (dot < 0) return undefined;
  const extension = name.slice(dot + 1);
  return highlightJs().getLanguage(extension) ? extension : undefined;
}

/**
 * A text as highlighted HTML, one string per line: a span that runs over several lines (a block
 * comment) is closed at each line's end and opened again on the next, so every line stands alone.
 */
export function highlightLines(text: string, language: string | undefined): string[] {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  if (!language) return body.split('\n').map(escapeHtml);
  return splitLines(highlightJs().highlight(body, { language, ignoreIllegals: true }).value);
}

function splitLines(markup: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let current = '';
  let last = 0;
  for (const match of markup.matchAll(/<span[^>]*>|<\/span>|\n/g)) {
    current += markup.slice(last, match.index);
    last = match.index + match[0].length;
    if (match[0] === '\n') {
      lines.push(current + '</span>'.repeat(open.length));
      current = open.join('');
    } else {
      if (match[0] === '</span>') open.pop();
      else open.push(match[0]);
      current += match[0];
    }
  }
  lines.push(current + markup.slice(last));
  return lines;
}
