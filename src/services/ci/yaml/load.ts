import type { Alias, Document, Node, Pair, ScalarTag, Tags, YAMLSeq } from 'yaml';
import { lazyPackage } from '../../../lib/lazy-package';

const yaml = lazyPackage<typeof import('yaml')>('yaml');

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
// Psych's date (`2016-09-22`) and time (`2016-09-22 10:00:00`) forms, its own patterns:
// `2016-13-01` is not a date, so it stays a string.
const psychDate: ScalarTag = {
  tag: 'tag:yaml.org,2002:timestamp',
  default: true,
  test: /^\d{4}-(?:1[012]|0\d|\d)-(?:[12]\d|3[01]|0\d|\d)$/,
  resolve: () => new DisallowedValue('Date'),
};
const psychTime: ScalarTag = {
  tag: 'tag:yaml.org,2002:timestamp',
  default: true,
  test: /^-?\d{4}-\d{1,2}-\d{1,2}(?:[Tt]|\s+)\d{1,2}:\d\d:\d\d(?:\.\d*)?(?:\s*(?:Z|[-+]\d{1,2}:?(?:\d\d)?))?$/,
  resolve: () => new DisallowedValue('Time'),
};
// Psych reads digits with commas as an integer (`Integer("1,000".delete(","))`), so
// `VERSION: 1,2` is the integer 12, not the string the YAML 1.1 spec would give.
const psychCommaInt: ScalarTag = {
  tag: 'tag:yaml.org,2002:int',
  default: true,
  test: /^[-+]?\d[\d_]*,[\d,_]*$/,
  resolve: (s) => {
    const digits = s.replace(/[,_]/g, '');
    // Ruby's Integer() reads a leading 0 as octal.
    return /^[-+]?0\d/.test(digits) && /^[-+]?[0-7]+$/.test(digits) ? parseInt(digits, 8) : parseInt(digits, 10);
  },
};

// `!!binary` is a String in Ruby (its bytes); the `yaml` package would give a Uint8Array.
const psychBinary: ScalarTag = {
  tag: 'tag:yaml.org,2002:binary',
  default: false,
  resolve: (s) => Buffer.from(s.replace(/\s+/g, ''), 'base64').toString('latin1'),
};

// The spec's tags that build what safe_load refuses: Psych::Set and Psych::Omap. Left out
// of the schema, they stay unresolved and `loadYaml` answers as 8.12 did.
const REPLACED = ['bool', 'timestamp', 'binary', 'set', 'omap', 'pairs'].map((t) => `tag:yaml.org,2002:${t}`);

/** The 1.1 schema with Psych's booleans, symbols, binary and refused classes in place of the spec's. */
function psychTags(defaults: Tags): Tags {
  const kept = defaults.filter((t) => typeof t === 'string' || !REPLACED.includes(t.tag));
  // Custom scalar tags are tried in order, so the more specific ones come first.
  return [psychSymbol, psychTrue, psychFalse, psychTime, psychDate, psychCommaInt, psychBinary, ...kept];
}

/**
 * Explicit tags for a class safe_load refuses (DisallowedClass, so "Undefined error" in 8.12):
 * Ruby objects (`!ruby/object:Foo`), sets and ordered maps. Other unknown tags are ignored
 * by Psych, and by the `yaml` package, which only warns.
 */
const DISALLOWED_TAG = /^(?:!ruby\/|tag:yaml\.org,2002:(?:set|omap|pairs|ruby\/))/;

/**
 * The most nodes a document may hold once its aliases are expanded. The guard against
 * "billion laughs" files: a real `.gitlab-ci.yml`, templates merged into hundreds of jobs
 * included, stays far below; a bomb of a few lines goes far above. (The `yaml` package's own
 * `maxAliasCount` counts the uses of each anchor, which refuses a template merged into more
 * than 100 jobs, so the expanded size is measured here instead.)
 */
export const MAX_EXPANDED_NODES = 200_000;

export type Loaded = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Parses `text`; maps come back as `Map`s so that keys keep their YAML type (a job named
 * `10` is an integer key, which 8.12 reports), in file order.
 */
export function loadYaml(text: string): Loaded {
  const doc = yaml().parseDocument(text, {
    version: '1.1',
    merge: true,
    // Psych keeps the last of two equal keys; it never refuses them.
    uniqueKeys: false,
    customTags: psychTags,
    prettyErrors: true,
  });
  const err = doc.errors[0];
  if (err) return { ok: false, error: syntaxMessage(err.message, err.linePos?.[0]) };
  for (const w of doc.warnings) {
    const tag = w.code === 'TAG_RESOLVE_FAILED' ? /^Unresolved tag: (\S+)/.exec(w.message)?.[1] : undefined;
    if (tag !== undefined && DISALLOWED_TAG.test(tag)) return { ok: false, error: 'Undefined error' };
  }
  const targets = aliasTargets(doc);
  // An alias to no anchor: Psych raises BadAlias, which 8.12 rescues as "Undefined error".
  if (targets === 'unresolved') return { ok: false, error: 'Undefined error' };
  if (expandedSize(doc, targets) > MAX_EXPANDED_NODES) {
    return { ok: false, error: `(<unknown>): too many aliases: the document expands to more than ${MAX_EXPANDED_NODES} nodes` };
  }
  inlineAliases(targets);
  try {
    return { ok: true, value: doc.toJS({ mapAsMap: true }) };
  } catch {
    return { ok: false, error: 'Undefined error' };
  }
}

/** Where an alias points, and where it stands: a pair's key or value, or a sequence's item. */
interface AliasTarget {
  node: Node;
  parent: Pair | YAMLSeq;
  at: 'key' | 'value' | number;
}

/**
 * Each alias's node: the last node anchored with its name before it, in document order, as
 * Psych and the `yaml` package resolve it. Found in one walk: the package's own
 * `Alias#resolve` walks the document for each alias, so a file of many aliases (a template
 * merged into thousands of jobs) took minutes.
 */
function aliasTargets(doc: Document): Map<Alias, AliasTarget> | 'unresolved' {
  const anchors = new Map<string, Node>();
  const targets = new Map<Alias, AliasTarget>();
  let unresolved = false;
  yaml().visit(doc, {
    Alias(at, alias, path) {
      const node = anchors.get(alias.source);
      const parent = path[path.length - 1];
      // A map's items are pairs, so an alias stands in a pair or in a sequence.
      if (!node || at === null || !(yaml().isPair(parent) || yaml().isSeq(parent))) {
        unresolved = true;
        return yaml().visit.BREAK;
      }
      targets.set(alias, { node, parent, at });
      return undefined;
    },
    Node(_key, node) {
      if (node.anchor) anchors.set(node.anchor, node);
    },
  });
  return unresolved ? 'unresolved' : targets;
}

/**
 * The number of nodes the document has with every alias replaced by its anchor's node,
 * computed once per node (so in time linear in the text), stopping past the limit.
 */
function expandedSize(doc: Document, targets: Map<Alias, AliasTarget>): number {
  const memo = new Map<unknown, number>();
  const inProgress = new Set<unknown>();
  const sizeOf = (node: unknown): number => {
    if (node === null || node === undefined) return 1;
    if (yaml().isAlias(node)) return sizeOf(targets.get(node)!.node);
    if (yaml().isPair(node)) return sizeOf(node.key) + sizeOf(node.value);
    if (!yaml().isCollection(node)) return 1;
    const known = memo.get(node);
    if (known !== undefined) return known;
    // An anchor used inside itself is a recursive structure: refused as a bomb would be.
    if (inProgress.has(node)) return Infinity;
    inProgress.add(node);
    let total = 1;
    for (const item of node.items) {
      total += sizeOf(item);
      if (total > MAX_EXPANDED_NODES) break;
    }
    inProgress.delete(node);
    memo.set(node, total);
    return total;
  };
  return sizeOf(doc.contents);
}

/**
 * Puts each alias's node in its place, so that `toJS` (which resolves an alias by the same
 * walk of the document) meets none. A node then appears where each of its aliases stood,
 * which `toJS` reads as so many copies: bounded, as the expanded size was checked first.
 */
function inlineAliases(targets: Map<Alias, AliasTarget>): void {
  for (const { node, parent, at } of targets.values()) {
    if (yaml().isPair(parent)) {
      if (at === 'key') parent.key = node;
      else parent.value = node;
    } else {
      parent.items[at as number] = node;
    }
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
