/*
 * The bash script of a build step, as runner 1.x writes it for its shell executor: errexit and
 * pipefail, then every line of the commands echoed as `$ line` before it runs (empty lines stay
 * empty). The lines come from the payload's `commands` (before_script and script joined with "\n")
 * or from `after_script`.
 */

export function shellScript(lines: string[], cwd: string): string {
  const out = ['set -eo pipefail', 'set +o noclobber', `cd ${quote(cwd)}`];
  for (const line of lines.flatMap((entry) => entry.split('\n'))) {
    const command = line.trim();
    if (command === '') {
      out.push('echo');
      continue;
    }
    out.push(`printf '%s\\n' ${quote(`$ ${command}`)}`, command);
  }
  return `${out.join('\n')}\n`;
}

/** A single-quoted bash word. */
export function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
