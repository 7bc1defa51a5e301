import { RubySymbol } from './load';

/**
 * The value checks of 8.12's validators (`Gitlab::Ci::Config::Node::Validators`), over the
 * loaded YAML: maps are `Map`s, Ruby symbols are `RubySymbol`s.
 */

/** The first problem found; `parseCiConfig` turns it into `{ ok: false, error }`. */
export class CiConfigError extends Error {}

/**
 * A structural message: `<location> <message>`, lower-cased as a whole. Ruby 2.3's
 * `String#downcase` touched ASCII letters only, so `Ä` stays `Ä`.
 */
export function structural(location: string, message: string): CiConfigError {
  const text = location ? `${location} ${message}` : message;
  return new CiConfigError(text.replace(/[A-Z]+/g, (s) => s.toLowerCase()));
}

export const isHash = (v: unknown): v is Map<unknown, unknown> => v instanceof Map;
export const isString = (v: unknown): v is string => typeof v === 'string';
export const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
export const isStringOrSymbol = (v: unknown): v is string | RubySymbol => typeof v === 'string' || v instanceof RubySymbol;
export const isArrayOfStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

/** Ruby's `blank?`: nil, false, and empty strings (whitespace only), arrays and hashes. */
export function isBlank(v: unknown): boolean {
  if (v === null || v === undefined || v === false) return true;
  if (typeof v === 'string') return /^\s*$/.test(v);
  if (Array.isArray(v)) return v.length === 0;
  if (v instanceof Map) return v.size === 0;
  return false;
}

/** How a hash key reads in a message or a name: Psych symbolized string keys; others print as Ruby's to_s. */
export function keyText(k: unknown): string {
  if (k instanceof RubySymbol) return k.name;
  if (k === null || k === undefined) return '';
  return String(k);
}

/** `AllowedKeysValidator`: the unknown keys, in file order. */
export function unknownKeys(map: Map<unknown, unknown>, allowed: readonly string[]): string[] {
  return [...map.keys()].filter((k) => !(isStringOrSymbol(k) && allowed.includes(keyText(k)))).map(keyText);
}

/** Reads a key whose name was symbolized (a string or a symbol key); null counts as absent, as 8.12's `Undefined` node. */
export function get(map: Map<unknown, unknown>, key: string): unknown {
  let found: unknown;
  for (const [k, v] of map) if (isStringOrSymbol(k) && keyText(k) === key) found = v;
  return found === null ? undefined : found;
}

/** `VariablesValidator`: a hash whose keys and values are all strings or symbols. */
export function isVariablesHash(v: unknown): v is Map<unknown, unknown> {
  return isHash(v) && [...v].every(([k, val]) => isStringOrSymbol(k) && isStringOrSymbol(val));
}

/** A `/…/` pattern of only/except: 8.12 compiles the text between the slashes. */
export function isRegexpPattern(s: string): boolean {
  return s.length >= 1 && s.startsWith('/') && s.endsWith('/');
}

/**
 * Compiles a Ruby regexp source as JavaScript. Ruby's `^` and `$` are line anchors (hence
 * the `m` flag); `\A`, `\z`, `\Z`, `\h` and a leading `(?i)` are translated. What JavaScript
 * cannot express (atomic groups, possessive quantifiers, inline flags elsewhere) does not
 * compile, so such a policy is refused rather than matched differently.
 */
export function rubyRegexp(source: string): RegExp | null {
  const caseless = source.startsWith('(?i)');
  const body = caseless ? source.slice(4) : source;
  const translated = body.replace(/\\(.)/gs, (all, c: string) =>
    c === 'A' ? '(?<![\\s\\S])' : c === 'z' ? '(?![\\s\\S])' : c === 'Z' ? '(?=\\n?(?![\\s\\S]))' : c === 'h' ? '[0-9a-fA-F]' : all,
  );
  try {
    return new RegExp(translated, caseless ? 'mi' : 'm');
  } catch {
    return null;
  }
}

/** `ArrayOfStringsOrRegexpsValidator`: strings (valid regexps when slashed) or symbols. */
export function isArrayOfStringsOrRegexps(v: unknown): v is (string | RubySymbol)[] {
  return (
    Array.isArray(v) &&
    v.every((p) => p instanceof RubySymbol || (isString(p) && (!isRegexpPattern(p) || rubyRegexp(p.slice(1, -1)) !== null)))
  );
}

// ChronicDuration's units, their abbreviations and their lengths in seconds (the gem 8.12 used for
// `expire_in`: a month is 30 days, a year 365.25 days).
const DURATION_UNITS: ReadonlyArray<[RegExp, number]> = [
  [/^(?:s|secs?|seconds?)$/, 1],
  [/^(?:m|mins?|minutes?)$/, 60],
  [/^(?:h|hrs?|hours?)$/, 3600],
  [/^(?:d|days?)$/, 86400],
  [/^(?:w|wks?|weeks?)$/, 7 * 86400],
  [/^(?:mos?|months?)$/, 30 * 86400],
  [/^(?:y|yrs?|years?)$/, 365.25 * 86400],
];

/**
 * `DurationValidator`: what `ChronicDuration.parse` accepts, within reason: numbers each
 * followed by an optional unit (`1 week`, `3 mins 4 sec`, `2h20min`, `10`), joined by spaces,
 * commas or `and`, or a clock form `1:30:00`. Empty text or unknown words are refused.
 */
export function isDuration(v: unknown): boolean {
  return parseDuration(v) !== undefined;
}

/**
 * The seconds `ChronicDuration.parse` reads in a duration `isDuration` accepts (a bare number is
 * seconds; a clock form is `[[[d:]h:]m:]s`); undefined for anything else.
 */
export function parseDuration(v: unknown): number | undefined {
  if (!isString(v)) return undefined;
  const s = v.trim().toLowerCase();
  if (/^\d+(?::\d+){1,3}(?:\.\d+)?$/.test(s)) {
    const parts = s.split(':').map(Number).reverse();
    return [1, 60, 3600, 86400].reduce((sum, unit, i) => sum + (parts[i] ?? 0) * unit, 0);
  }
  const tokens = s.replace(/,|\band\b/g, ' ').match(/\d+(?:\.\d+)?|[a-z]+|\S/g);
  if (!tokens) return undefined;
  let seconds = 0;
  let pending: number | undefined;
  let sawNumber = false;
  for (const t of tokens) {
    if (/^\d/.test(t)) {
      if (pending !== undefined) seconds += pending;
      pending = Number(t);
      sawNumber = true;
      continue;
    }
    const unit = pending === undefined ? undefined : DURATION_UNITS.find(([pattern]) => pattern.test(t))?.[1];
    if (unit === undefined || pending === undefined) return undefined;
    seconds += pending * unit;
    pending = undefined;
  }
  if (pending !== undefined) seconds += pending;
  return sawNumber ? seconds : undefined;
}
