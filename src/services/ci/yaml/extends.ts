import { CiConfigError, isHash, isStringOrSymbol, keyText, structural } from './checks';

/**
 * `extends` (GitLab's `Config::Extendable`): a top-level entry naming others gets their hashes
 * deep-merged under its own, bases in order (a later base wins), its own keys winning over all.
 * Runs on the loaded file before any entry is checked, so templates (`.name`) are bases too.
 */

/** How many bases deep one `extends` chain may go. */
export const MAX_EXTENDS_DEPTH = 11;

/** `isEntry`: the top-level keys that are jobs or templates (global keywords take no part). */
export function resolveExtends(root: Map<unknown, unknown>, isEntry: (k: unknown) => boolean): Map<unknown, unknown> {
  const byName = new Map<string, unknown>();
  for (const [k, v] of root) if (isStringOrSymbol(k) && isEntry(k)) byName.set(keyText(k), v);
  const done = new Map<string, Map<unknown, unknown>>();

  const extend = (name: string, ancestors: string[]): Map<unknown, unknown> => {
    const value = byName.get(name) as Map<unknown, unknown>;
    const cached = done.get(name);
    if (cached) return cached;
    const bases = extendsOf(name, value);
    if (bases.length === 0) return value;
    const unknown = bases.filter((b) => !byName.has(b));
    if (unknown.length > 0) throw new CiConfigError(`${name}: unknown keys in \`extends\` (${unknown.join(', ')})`);
    const invalid = bases.filter((b) => !isHash(byName.get(b)));
    if (invalid.length > 0) throw new CiConfigError(`${name}: invalid base hashes in \`extends\` (${invalid.join(', ')})`);
    if (ancestors.length >= MAX_EXTENDS_DEPTH) throw new CiConfigError(`${name}: nesting too deep in \`extends\``);
    if (ancestors.includes(name)) throw new CiConfigError(`${name}: circular dependency detected in \`extends\``);
    const merged = bases.reduce<Map<unknown, unknown>>((acc, base) => deepMerge(acc, extend(base, [...ancestors, name])), new Map());
    const extended = deepMerge(merged, value);
    done.set(name, extended);
    return extended;
  };

  const out = new Map<unknown, unknown>();
  for (const [k, v] of root) out.set(k, isStringOrSymbol(k) && isEntry(k) && isHash(v) ? extend(keyText(k), []) : v);
  return out;
}

/** The names an entry extends: a string or an array of strings. */
function extendsOf(name: string, value: Map<unknown, unknown>): string[] {
  let bases: unknown;
  for (const [k, v] of value) if (isStringOrSymbol(k) && keyText(k) === 'extends') bases = v;
  if (bases === undefined || bases === null) return [];
  if (typeof bases === 'string') return [bases];
  if (Array.isArray(bases) && bases.every((b) => typeof b === 'string')) return bases;
  throw structural(`jobs:${name}`, 'extends should be an array of strings or a string');
}

/** Ruby's `Hash#deep_merge`: hashes under the same key merge, anything else from `over` replaces. */
export function deepMerge(under: Map<unknown, unknown>, over: Map<unknown, unknown>): Map<unknown, unknown> {
  const out = new Map(under);
  const keyOf = new Map<string, unknown>();
  for (const k of out.keys()) if (isStringOrSymbol(k)) keyOf.set(keyText(k), k);
  for (const [k, v] of over) {
    const existing = isStringOrSymbol(k) ? keyOf.get(keyText(k)) : out.has(k) ? k : undefined;
    const old = existing === undefined ? undefined : out.get(existing);
    if (existing !== undefined) out.delete(existing);
    out.set(k, isHash(old) && isHash(v) ? deepMerge(old, v) : v);
    if (isStringOrSymbol(k)) keyOf.set(keyText(k), k);
  }
  return out;
}
