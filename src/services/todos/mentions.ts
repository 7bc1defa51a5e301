/**
 * The names @-mentioned in a Markdown text, found where GitLab 8.12 found them: its
 * `UserReferenceFilter` ran over the rendered HTML and skipped text inside `code`, `pre` and `a`
 * elements. So a mention in a code span, a fenced or indented code block, a link, a URL or an
 * e-mail address (`a@b.com`, which Markdown turns into a link) is not one.
 *
 * A name follows 8.12's `NAMESPACE_REGEX_STR`: letters, digits, `_`, `.` and `-`, not starting with
 * `-` and not ending with `.` (so `@bob.` at the end of a sentence names `bob`). `all` is kept as
 * it is: the caller decides what `@all` reaches.
 *
 * Returns each name once, lower-cased (8.12 looked names up case-insensitively), in order of first
 * appearance. A pure function: who the names belong to is the caller's question.
 */
export function mentionedNames(markdown: string): string[] {
  const names = new Set<string>();
  for (const block of proseBlocks(markdown)) {
    const prose = withoutInlineCode(block).replace(NOT_PROSE, ' ');
    for (const match of prose.matchAll(MENTION)) names.add(match[1].toLowerCase());
  }
  return [...names];
}

/** `@name`, not preceded by what would make it part of a word or an e-mail address. */
const MENTION = /(?<![\w.+\-@])@([A-Za-z0-9_.][A-Za-z0-9_.-]*[A-Za-z0-9_-]|[A-Za-z0-9_])/g;

/** Inline text that renders inside `a`, `code` or `pre`: links, autolinks, bare URLs, HTML code. */
const NOT_PROSE = new RegExp(
  [
    /!?\[[^\]]*\]\([^)]*\)/.source, // [text](url) and images
    /<[^\s<>]+@[^\s<>]+>/.source, // <a@b.com>
    /<[a-z][a-z0-9+.-]*:[^\s<>]*>/.source, // <https://…>
    /\b(?:https?|ftp):\/\/\S+/.source, // bare URLs
    /<(code|pre|a)\b[^>]*>[\s\S]*?<\/\1>/.source, // HTML code, pre and links
  ].join('|'),
  'gi',
);

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const INDENTED = /^(?: {4}|\t)/;

/**
 * The text outside fenced and indented code blocks, as paragraphs (code spans never cross a blank
 * line). An indented line opens a code block only where it cannot continue a paragraph.
 */
function proseBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  const endBlock = () => {
    if (current.length) blocks.push(current.join('\n'));
    current = [];
  };
  let fence: string | undefined;
  let inIndentedCode = false;
  for (const line of markdown.split(/\r\n|\r|\n/)) {
    if (fence !== undefined) {
      const closing = FENCE.exec(line);
      if (closing && closing[1][0] === fence[0] && closing[1].length >= fence.length && line.trim() === closing[1]) fence = undefined;
      continue;
    }
    const opening = FENCE.exec(line);
    if (opening) {
      endBlock();
      fence = opening[1];
      continue;
    }
    const blank = line.trim() === '';
    if (inIndentedCode && (blank || INDENTED.test(line))) continue;
    inIndentedCode = false;
    if (blank) {
      endBlock();
      continue;
    }
    if (INDENTED.test(line) && current.length === 0) {
      inIndentedCode = true;
      continue;
    }
    current.push(line);
  }
  endBlock();
  return blocks;
}

/** The block with its code spans blanked: a run of backticks up to the next run of the same length. */
function withoutInlineCode(block: string): string {
  let result = '';
  let index = 0;
  while (index < block.length) {
    const open = /`+/g;
    open.lastIndex = index;
    const start = open.exec(block);
    if (!start) break;
    const ticks = start[0];
    const close = new RegExp(`(?<!\`)${ticks}(?!\`)`, 'g');
    close.lastIndex = start.index + ticks.length;
    const end = close.exec(block);
    if (!end) {
      // An unmatched run is literal text.
      result += block.slice(index, start.index + ticks.length);
      index = start.index + ticks.length;
      continue;
    }
    result += `${block.slice(index, start.index)} `;
    index = end.index + ticks.length;
  }
  return result + block.slice(index);
}
