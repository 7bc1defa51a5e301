import { parseDocument, type ScalarTag, type Tags } from 'yaml';

/**
 * Loading the YAML text the way 8.12 did: `YAML.safe_load(text, [Symbol], [], true)` with
 * Ruby's Psych, a YAML 1.1 parser (reference §6.1). The `yaml` package is run in its 1.1
 * mode with merge keys; where Psych's scalar rules differ from the 1.1 spec, Psych wins,
 * because what matters is what GitLab accepted.
 */

/** A Ruby Symbol: Psych turns a plain scalar such as `:deploy` into one (safe_load allows Symbol). */
export class RubySymbol {
  constructor(readonly name: string) {}
  toString(): string {
    return this.name;
  }
}

/**
 * A class safe_load refuses (a date or a time). Psych raises `DisallowedClass`, which none of
 * 8.12's rescue clauses name, so the pipeline ends with "Undefined error".
 */
export class DisallowedValue {
  constructor(readonly className: string) {}
}

// Psych's ScalarScanner: yes/true/on and no/false/off in any case are booleans; `y`, `n`
// (booleans in the YAML 1.1 spec, and in the `yaml` package's 1.1 schema) stay strings.
const psychTrue: ScalarTag = {
  tag: 'tag:yaml.org,2002:bool',
  default: true,
  identify: (v) => v === true,
  test: /^(?:yes|true|on)$/i,
  resolve: () => true,
};
const psychFalse: ScalarTag = {
  tag: 'tag:yaml.org,2002:bool',
  default: true,
  identify: (v) => v === false,
  test: /^(?:no|false|off)$/i,
  resolve: () => false,
};
// Psych: a plain scalar starting with ':' and at least one more character is a Symbol;
// `:"a b"` and `:'a b'` are symbols of the quoted text.
const psychSymbol: ScalarTag = {
  tag: 'tag:ruby.forge,2026:sym',
  default: true,
  identify: (v) => v instanceof RubySymbol,
  test: /^:./s,
  resolve: (s) => {
    const quoted = /^:(["'])(.*)\1$/s.exec(s);
    return new RubySymbol(quoted ? quoted[2]! : s.slice(1));
  },
};
// Psych's date (`2016-09-22`) and time (`2016-09-22 10:00:00`) forms.
const psychDate: ScalarTag = {
  tag: 'tag:yaml.org,2002:timestamp',
  default: true,
  test: /^\d{4}-\d{1,2}-\d{1,2}$/,
  resolve: () => new DisallowedValue('Date'),
};
const psychTime: ScalarTag = {
  tag: 'tag:yaml.org,2002:timestamp',
  default: true,
  test: /^\d{4}-\d\d?-\d\d?(?:[Tt]|\s+)\d\d?:\d\d:\d\d(?:\.\d*)?(?:\s*(?:Z|[-+]\d\d?(?::?\d\d)?))?$/,
  resolve: () => new DisallowedValue('Time'),
};

/** The 1.1 schema with Psych's booleans, symbols and refused timestamps in place of the spec's. */
function psychTags(defaults: Tags): Tags {
  const kept = defaults.filter(
    (t) => typeof t === 'string' || (t.tag !== 'tag:yaml.org,2002:bool' && t.tag !== 'tag:yaml.org,2002:timestamp'),
  );
  // Custom scalar tags are tried in order, so the more specific ones come first.
  return [psychSymbol, psychTrue, psychFalse, psychTime, psychDate, ...kept];
}

/**
 * Aliases expanded per document. Forge's cap on "billion laughs" files: a real
 * `.gitlab-ci.yml` uses a handful of templates, a bomb needs thousands.
 */
export const MAX_ALIAS_COUNT = 100;

export type Loaded = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Parses `text`; maps come back as `Map`s so that keys keep their YAML type (a job named
 * `10` is an integer key, which 8.12 reports), in file order.
 */
export function loadYaml(text: string): Loaded {
  const doc = parseDocument(text, {
    version: '1.1',
    merge: true,
    // Psych keeps the last of two equal keys; it never refuses them.
    uniqueKeys: false,
    customTags: psychTags,
    prettyErrors: true,
    strict: false,
  });
  const err = doc.errors[0];
  if (err) return { ok: false, error: syntaxMessage(err.message, err.linePos?.[0]) };
  try {
    return { ok: true, value: doc.toJS({ mapAsMap: true, maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (e) {
    // The only throw left at this point is the alias cap; a bomb is not a format 8.12 knew.
    if (e instanceof ReferenceError || (e instanceof Error && /alias/i.test(e.message))) {
      return { ok: false, error: `(<unknown>): too many aliases (more than ${MAX_ALIAS_COUNT})` };
    }
    return { ok: false, error: 'Undefined error' };
  }
}

/**
 * Psych's syntax errors read `(<unknown>): <problem> at line L column C` (reference §6.1);
 * the problem text is the `yaml` package's own, as Psych's libyaml wording cannot be
 * reproduced from another parser.
 */
function syntaxMessage(message: string, pos: { line: number; col: number } | undefined): string {
  const problem = message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  const problemText = problem.charAt(0).toLowerCase() + problem.slice(1);
  return pos ? `(<unknown>): ${problemText} at line ${pos.line} column ${pos.col}` : `(<unknown>): ${problemText}`;
}
