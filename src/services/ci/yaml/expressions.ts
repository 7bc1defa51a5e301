/**
 * GitLab's CI/CD variable expressions (`Gitlab::Ci::Pipeline::Expression`), as `rules:if` and
 * `workflow:rules:if` use them: `$VAR`, "strings", 'strings', /patterns/flags and `null`, compared
 * with `==`, `!=`, `=~`, `!~`, joined by `&&` (binding tighter) and `||`, grouped by parentheses.
 */

export type Expression =
  | { kind: 'variable'; name: string }
  | { kind: 'string'; value: string }
  | { kind: 'pattern'; regexp: RegExp }
  | { kind: 'null' }
  | { kind: 'compare'; op: '==' | '!=' | '=~' | '!~'; left: Expression; right: Expression }
  | { kind: 'logical'; op: '&&' | '||'; left: Expression; right: Expression };

type Token =
  | { kind: 'operand'; value: Expression }
  | { kind: 'op'; op: '==' | '!=' | '=~' | '!~' | '&&' | '||' }
  | { kind: 'open' }
  | { kind: 'close' };

/** GitLab's lexer gives up past this many tokens. */
const MAX_TOKENS = 100;

const VARIABLE = /^\$([a-zA-Z_][a-zA-Z0-9_]*)/;
// Strings have no escapes: the text runs to the next matching quote.
const STRING = /^(?:"([^"]*)"|'([^']*)')/;
// A pattern runs to the first unescaped slash; `i`, `m` and `s` are the flags RE2 shares with JavaScript.
const PATTERN = /^\/((?:\\.|[^\\/])+)\/([ims]*)/;
const OPERATOR = /^(?:==|!=|=~|!~|&&|\|\|)/;

function tokenize(text: string): Token[] | undefined {
  const tokens: Token[] = [];
  let rest = text;
  for (;;) {
    rest = rest.replace(/^\s+/, '');
    if (rest === '') return tokens;
    if (tokens.length >= MAX_TOKENS) return undefined;
    let m: RegExpExecArray | null;
    if ((m = VARIABLE.exec(rest))) {
      tokens.push({ kind: 'operand', value: { kind: 'variable', name: m[1]! } });
    } else if ((m = STRING.exec(rest))) {
      tokens.push({ kind: 'operand', value: { kind: 'string', value: m[1] ?? m[2]! } });
    } else if ((m = PATTERN.exec(rest))) {
      const regexp = compilePattern(m[1]!, m[2]!);
      if (!regexp) return undefined;
      tokens.push({ kind: 'operand', value: { kind: 'pattern', regexp } });
    } else if ((m = /^null\b/.exec(rest))) {
      tokens.push({ kind: 'operand', value: { kind: 'null' } });
    } else if ((m = OPERATOR.exec(rest))) {
      tokens.push({ kind: 'op', op: m[0] as '==' });
    } else if ((m = /^\(/.exec(rest))) {
      tokens.push({ kind: 'open' });
    } else if ((m = /^\)/.exec(rest))) {
      tokens.push({ kind: 'close' });
    } else {
      return undefined;
    }
    rest = rest.slice(m[0].length);
  }
}

function compilePattern(source: string, flags: string): RegExp | undefined {
  try {
    // An escaped slash is a slash; the rest of the source is the regexp's own.
    return new RegExp(source.replace(/\\\//g, '/'), [...new Set(flags)].join(''));
  } catch {
    return undefined;
  }
}

/** The expression's tree, or undefined for text that is not one ("invalid expression syntax"). */
export function parseExpression(text: string): Expression | undefined {
  const tokens = tokenize(text);
  if (!tokens || tokens.length === 0) return undefined;
  let at = 0;
  const peek = () => tokens[at];

  const primary = (): Expression | undefined => {
    const token = tokens[at++];
    if (!token) return undefined;
    if (token.kind === 'operand') return token.value;
    if (token.kind !== 'open') return undefined;
    const inner = or();
    if (!inner || peek()?.kind !== 'close') return undefined;
    at++;
    return inner;
  };
  const comparison = (): Expression | undefined => {
    const left = primary();
    const next = peek();
    if (!left || next?.kind !== 'op' || (next.op !== '==' && next.op !== '!=' && next.op !== '=~' && next.op !== '!~')) return left;
    at++;
    const right = primary();
    if (!right) return undefined;
    // A pattern is only ever the right side of a match.
    const matching = next.op === '=~' || next.op === '!~';
    if (matching && right.kind !== 'pattern') return undefined;
    return { kind: 'compare', op: next.op, left, right };
  };
  const binary = (op: '&&' | '||', operand: () => Expression | undefined) => (): Expression | undefined => {
    let left = operand();
    while (left) {
      const next = peek();
      if (next?.kind !== 'op' || next.op !== op) break;
      at++;
      const right = operand();
      left = right && { kind: 'logical', op, left, right };
    }
    return left;
  };
  const and = binary('&&', comparison);
  const or: () => Expression | undefined = binary('||', and);

  const tree = or();
  return tree && at === tokens.length ? tree : undefined;
}

/** Whether `text` is a valid expression: the lint's `if` check. */
export function isExpression(text: unknown): boolean {
  return typeof text === 'string' && parseExpression(text) !== undefined;
}

type Value = string | RegExp | null | boolean;

function evaluate(e: Expression, variables: ReadonlyMap<string, string>): Value {
  switch (e.kind) {
    case 'variable':
      return variables.get(e.name) ?? null;
    case 'string':
      return e.value;
    case 'pattern':
      return e.regexp;
    case 'null':
      return null;
    case 'compare': {
      const left = evaluate(e.left, variables);
      const right = evaluate(e.right, variables);
      if (e.op === '==' || e.op === '!=') return sameValue(left, right) === (e.op === '==');
      // Ruby's `regexp.scan(text.to_s).any?`: a match anywhere; an absent variable reads as "".
      const text = typeof left === 'string' ? left : '';
      const matched = right instanceof RegExp && right.test(text);
      return matched === (e.op === '=~');
    }
    case 'logical': {
      const left = truthy(evaluate(e.left, variables));
      if (e.op === '&&') return left && truthy(evaluate(e.right, variables));
      return left || truthy(evaluate(e.right, variables));
    }
  }
}

function sameValue(a: Value, b: Value): boolean {
  if (a instanceof RegExp || b instanceof RegExp) return a instanceof RegExp && b instanceof RegExp && a.source === b.source;
  return a === b;
}

// Ruby's `present?`: an empty string (or an absent variable) is false.
const truthy = (v: Value): boolean => (typeof v === 'string' ? v !== '' : v !== null && v !== false);

/** The expression's truth with these variables (absent ones are null). */
export function evaluateExpression(e: Expression, variables: ReadonlyMap<string, string>): boolean {
  return truthy(evaluate(e, variables));
}
