import type MarkdownIt from 'markdown-it';
import type sanitizeHtml from 'sanitize-html';
import { lazyPackage } from '../lib/lazy-package';
import { highlightJs } from './highlight';
import { escapeHtml, trusted, type SafeHtml } from './html';
import type { ReferenceLinker } from './references';
import { resolveRelative, type RelativeBase } from './relative-links';

/*
 * Markdown as GitLab renders it, in two steps: markdown-it (GitHub-flavoured: tables,
 * strikethrough, autolinks, raw HTML allowed as GitLab allows it) with fenced code highlighted by
 * highlight.js and task lists as checkboxes, then sanitize-html with an allow-list. Whatever the
 * first step lets through (raw HTML, a `javascript:` link), the second drops: only the allow-list
 * below reaches a page.
 */

/** Languages highlighted by name; a fence naming another is shown as plain text. */
function highlight(code: string, language: string): string {
  const name = language.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  if (name && highlightJs().getLanguage(name)) return highlightJs().highlight(code, { language: name, ignoreIllegals: true }).value;
  return escapeHtml(code);
}

const markdownIt = lazyPackage<typeof MarkdownIt>('markdown-it');
const sanitizer = lazyPackage<typeof sanitizeHtml>('sanitize-html');

type Parser = InstanceType<typeof MarkdownIt>;

let parser: Parser | undefined;

/** The parser, made when the first text is rendered. */
function markdownParser(): Parser {
  if (parser) return parser;
  parser = new (markdownIt())({ html: true, linkify: true, typographer: false, highlight });
  parser.core.ruler.after('inline', 'task-lists', taskLists);
  parser.core.ruler.push('references', referenceLinks);
  return parser;
}

type Rule = Parameters<Parser['core']['ruler']['push']>[1];

// `[ ]` and `[x]` at the start of a list item, as GitHub and GitLab show them: a disabled checkbox.
const taskLists: Rule = (state) => {
  const tokens = state.tokens;
  for (let index = 2; index < tokens.length; index++) {
    const inline = tokens[index];
    if (inline.type !== 'inline' || tokens[index - 2].type !== 'list_item_open') continue;
    const first = inline.children?.[0];
    const match = first?.type === 'text' ? /^\[([ xX])\]\s/.exec(first.content) : null;
    if (!first || !match) continue;
    first.content = first.content.slice(match[0].length);
    const box = new state.Token('html_inline', '', 0);
    box.content = `<input type="checkbox" class="task-list-item-checkbox" disabled${match[1] === ' ' ? '' : ' checked'}> `;
    inline.children!.unshift(box);
    tokens[index - 2].attrJoin('class', 'task-list-item');
  }
};

// GitLab's references (`references.ts`) in plain text only: not in code, nor inside a link already.
const referenceLinks: Rule = (state) => {
  const linker = (state.env as { linker?: ReferenceLinker }).linker;
  if (!linker) return;
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    let linkDepth = 0;
    const children: typeof block.children = [];
    for (const token of block.children) {
      if (token.type === 'link_open' || (token.type === 'html_inline' && /^<a[\s>]/i.test(token.content))) linkDepth++;
      if (token.type === 'link_close' || (token.type === 'html_inline' && /^<\/a\s*>/i.test(token.content))) linkDepth--;
      if (token.type !== 'text' || linkDepth > 0) {
        children.push(token);
        continue;
      }
      for (const piece of linker(token.content)) {
        if (typeof piece === 'string') {
          const text = new state.Token('text', '', 0);
          text.content = piece;
          children.push(text);
          continue;
        }
        const open = new state.Token('link_open', 'a', 1);
        open.attrs = [
          ['href', piece.href],
          ['class', piece.className],
          ...(piece.title ? [['title', piece.title] as [string, string]] : []),
        ];
        const text = new state.Token('text', '', 0);
        text.content = piece.text;
        children.push(open, text, new state.Token('link_close', 'a', -1));
      }
    }
    block.children = children;
  }
};

let allowList: sanitizeHtml.IOptions | undefined;

/** What the sanitizer lets through, with sanitize-html's own default tags. */
function sanitizeOptions(): sanitizeHtml.IOptions {
  allowList ??= {
    allowedTags: [
      ...sanitizer().defaults.allowedTags,
      'img',
      'del',
      's',
      'ins',
      'sup',
      'sub',
      'kbd',
      'details',
      'summary',
      'input',
      'dl',
      'dt',
      'dd',
    ],
    allowedAttributes: {
      a: ['href', 'title', 'name', 'id', 'rel', 'class'],
      img: ['src', 'alt', 'title', 'width', 'height'],
      input: ['type', 'checked', 'disabled', 'class'],
      li: ['class'],
      code: ['class'],
      span: ['class'],
      th: ['style', 'align'],
      td: ['style', 'align'],
      ol: ['start'],
      h1: ['id'],
      h2: ['id'],
      h3: ['id'],
      h4: ['id'],
      h5: ['id'],
      h6: ['id'],
    },
    allowedClasses: {
      a: [/^gfm(-[\w-]+)?$/],
      code: [/^language-[\w+-]+$/],
      span: [/^hljs-[\w-]+$/, 'language-xml', 'language-css', 'language-javascript'],
      li: ['task-list-item'],
      input: ['task-list-item-checkbox'],
    },
    allowedStyles: { th: { 'text-align': [/^(left|right|center)$/] }, td: { 'text-align': [/^(left|right|center)$/] } },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['http', 'https'] },
    allowProtocolRelative: false,
    // Only checkboxes: any other input (a text field, a submit button) is dropped.
    exclusiveFilter: (frame) => frame.tag === 'input' && frame.attribs.type !== 'checkbox',
    transformTags: {
      a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: 'nofollow noreferrer noopener' } }),
      input: (tagName, attribs) => ({ tagName, attribs: { ...attribs, disabled: '' } }),
    },
    disallowedTagsMode: 'discard',
  };
  return allowList;
}

/**
 * The sanitizer's options for a repository file's Markdown: relative links and images (written in
 * Markdown or as raw HTML) resolved against the file's folder first, then the same allow-list.
 */
function sanitizeFileMarkdown(base: RelativeBase): sanitizeHtml.IOptions {
  const allowed = sanitizeOptions();
  const link = allowed.transformTags!.a as sanitizeHtml.Transformer;
  return {
    ...allowed,
    transformTags: {
      ...allowed.transformTags,
      a: (tagName, attribs) =>
        link(tagName, attribs.href === undefined ? attribs : { ...attribs, href: resolveRelative(attribs.href, base, 'link') }),
      img: (tagName, attribs) => ({
        tagName,
        attribs: attribs.src === undefined ? attribs : { ...attribs, src: resolveRelative(attribs.src, base, 'image') },
      }),
    },
  };
}

/**
 * Markdown text as sanitized HTML, ready for a page; with a linker, its references link. A
 * repository file's Markdown (a README, a `.md` blob) gives its `relativeTo`, so that its relative
 * links open the files beside it; issues and comments give none.
 */
export function renderMarkdown(text: string, references?: ReferenceLinker, relativeTo?: RelativeBase): SafeHtml {
  const options = relativeTo ? sanitizeFileMarkdown(relativeTo) : sanitizeOptions();
  return trusted(sanitizer()(markdownParser().render(text, { linker: references }), options));
}
