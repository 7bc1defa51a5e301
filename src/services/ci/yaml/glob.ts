/**
 * Ruby's `File.fnmatch?(glob, path, FNM_PATHNAME | FNM_DOTMATCH | FNM_EXTGLOB)`, as `rules:changes`
 * and `rules:exists` match paths: `*` and `?` stay within a directory, a `**` directory part spans directories,
 * `[…]` is a class and `{a,b}` alternatives; dot files match like any other.
 */
export function globRegExp(glob: string): RegExp | undefined {
  let out = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*' && (i === 0 || glob[i - 1] === '/') && glob[i + 2] === '/') {
        out += '(?:[^/]*/)*';
        i += 2;
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) return undefined;
      const body = glob
        .slice(i + 1, end)
        .replace(/^!/, '^')
        .replace(/\\/g, '\\\\');
      out += `[${body}]`;
      i = end;
    } else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) {
      out += '|';
    } else if (c === '\\' && i + 1 < glob.length) {
      out += `\\${glob[++i]}`.replace(/^\\([a-zA-Z0-9])$/, '$1');
    } else {
      out += c.replace(/[.+^$()|\\/\]]/g, '\\$&');
    }
  }
  if (braces > 0) return undefined;
  try {
    return new RegExp(`^${out}$`);
  } catch {
    return undefined;
  }
}

/** Whether any path matches any glob, after at most `limit` comparisons (then true, as GitLab answers). */
export function anyPathMatches(globs: readonly string[], paths: readonly string[], limit = Number.POSITIVE_INFINITY): boolean {
  const patterns = globs.map(globRegExp).filter((p): p is RegExp => p !== undefined);
  let comparisons = 0;
  for (const path of paths) {
    for (const pattern of patterns) {
      if (++comparisons > limit) return true;
      if (pattern.test(path)) return true;
    }
  }
  return false;
}
