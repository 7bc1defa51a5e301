import fs from 'node:fs';
import path from 'node:path';

/*
 * Which files of the working copy `artifacts:paths` names, as the runner's archiver reads them:
 * each path a glob of Go's filepath.Glob (`*`, `?` and `[…]` within one path segment), a folder
 * taken with everything under it. A path that leaves the working copy is reported, not followed.
 */

export interface Matched {
  /** Files and folders, relative to the working copy, `/`-separated, each once, in a stable order. */
  entries: string[];
  /** One line per path that matched nothing or was refused. */
  warnings: string[];
}

export function matchArtifactPaths(root: string, patterns: string[], extra: string[] = []): Matched {
  const found = new Set<string>();
  const warnings: string[] = [];
  const add = (relative: string) => {
    if (found.has(relative)) return;
    found.add(relative);
    const full = path.join(root, relative);
    const stat = fs.lstatSync(full, { throwIfNoEntry: false });
    if (stat?.isDirectory()) for (const child of fs.readdirSync(full).sort()) add(`${relative}/${child}`);
  };
  for (const pattern of patterns) {
    const normalized = path.posix.normalize(pattern.replace(/\\/g, '/')).replace(/\/+$/, '');
    if (
      normalized === '' ||
      normalized === '.' ||
      path.posix.isAbsolute(normalized) ||
      normalized === '..' ||
      normalized.startsWith('../')
    ) {
      warnings.push(`WARNING: ${pattern}: not a path inside the project folder, skipped`);
      continue;
    }
    const matches = globSegments(root, normalized.split('/'));
    if (matches.length === 0) warnings.push(`WARNING: ${pattern}: no matching files`);
    matches.forEach(add);
  }
  extra.forEach((relative) => {
    if (fs.lstatSync(path.join(root, relative), { throwIfNoEntry: false })) add(relative);
  });
  return { entries: [...found].filter((entry) => entry !== '.git' && !entry.startsWith('.git/')), warnings };
}

function globSegments(root: string, segments: string[]): string[] {
  let current = [''];
  for (const segment of segments) {
    const next: string[] = [];
    for (const base of current) {
      const folder = path.join(root, base);
      if (!hasMagic(segment)) {
        const candidate = base === '' ? segment : `${base}/${segment}`;
        if (fs.lstatSync(path.join(root, candidate), { throwIfNoEntry: false })) next.push(candidate);
        continue;
      }
      const pattern = segmentPattern(segment);
      let names: string[] = [];
      try {
        names = fs.readdirSync(folder).sort();
      } catch {
        // not a folder: nothing below it
      }
      for (const name of names) if (pattern.test(name)) next.push(base === '' ? name : `${base}/${name}`);
    }
    current = next;
  }
  return current;
}

const hasMagic = (segment: string) => /[*?[]/.test(segment);

/** One path segment of a glob as a regular expression: `*`, `?`, `[…]` (with `^` or `!` negation), `\` escapes. */
function segmentPattern(segment: string): RegExp {
  let source = '';
  for (let i = 0; i < segment.length; i++) {
    const char = segment[i]!;
    if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '\\' && i + 1 < segment.length) source += escapeRegExp(segment[++i]!);
    else if (char === '[') {
      const end = segment.indexOf(']', i + 2);
      if (end === -1) {
        source += escapeRegExp(char);
        continue;
      }
      let body = segment.slice(i + 1, end);
      const negated = body.startsWith('^') || body.startsWith('!');
      if (negated) body = body.slice(1);
      source += `[${negated ? '^' : ''}${body.replace(/[\\\]]/g, '\\$&')}]`;
      i = end;
    } else source += escapeRegExp(char);
  }
  return new RegExp(`^${source}$`);
}

const escapeRegExp = (char: string) => char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
