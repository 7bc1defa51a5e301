import type { BuildVariable } from './variables';

const REFERENCE = /\$([a-zA-Z_][a-zA-Z0-9_]*)|\$\{([a-zA-Z_][a-zA-Z0-9_]*)\}|%([a-zA-Z_][a-zA-Z0-9_]*)%/g;

/**
 * GitLab 8.12's `ExpandVariables.expand`: `$NAME`, `${NAME}` and `%NAME%` are replaced by the
 * variable's value; a later variable of the same key wins (as the runner reads them), and an unknown
 * name becomes "".
 */
export function expandVariables(text: string, variables: readonly BuildVariable[]): string {
  const values = new Map(variables.map((variable) => [variable.key, variable.value ?? '']));
  return text.replace(
    REFERENCE,
    (_match, plain?: string, braced?: string, percent?: string) => values.get((plain ?? braced ?? percent)!) ?? '',
  );
}
