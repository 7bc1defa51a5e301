import { CiConfigError, get, isArrayOfStrings, isBoolean, isHash, keyText, unknownKeys } from './checks';
import * as entry from './entries';
import { evaluateExpression, isExpression, parseExpression } from './expressions';
import { anyPathMatches } from './glob';
import type { CiRule, JobWhen } from './types';

/**
 * `rules` of a job and `workflow: rules` (GitLab's `Entry::Rules::Rule` and `Build::Rules`): their
 * checks with GitLab's messages, and which rule a pipeline matches.
 */

const RULE_KEYS = ['if', 'changes', 'exists', 'when', 'allow_failure', 'variables'] as const;
const JOB_RULE_WHEN = ['on_success', 'on_failure', 'always', 'never', 'manual'];
const WORKFLOW_RULE_WHEN = ['always', 'never'];
const WORKFLOW_KEYS = ['rules'] as const;
/** GitLab's bound on `exists` globs in one rule. */
const MAX_EXISTS_GLOBS = 50;

// Messages of GitLab's later entries keep their case (8.12's lowered the whole text).
const error = (location: string, message: string) => new CiConfigError(`${location} ${message}`);

/** A job's `rules`, which may not stand beside `only` or `except`. */
export function jobRules(location: string, job: Map<unknown, unknown>): CiRule[] | null {
  const v = get(job, 'rules');
  if (v === undefined) return null;
  const clashing = ['only', 'except'].filter((k) => get(job, k) !== undefined);
  if (clashing.length > 0) throw error(location, `config key may not be used with \`rules\`: ${clashing.join(', ')}`);
  return rulesEntry(`${location}:rules`, v, JOB_RULE_WHEN);
}

/** `workflow:` (its `rules` only); null when absent. */
export function workflowRules(v: unknown): CiRule[] | null {
  if (v === undefined) return null;
  if (!isHash(v)) throw error('workflow', 'config should be a hash');
  const unknown = unknownKeys(v, WORKFLOW_KEYS);
  if (unknown.length > 0) throw error('workflow', `config contains unknown keys: ${unknown.join(', ')}`);
  const rules = get(v, 'rules');
  return rules === undefined ? null : rulesEntry('workflow:rules', rules, WORKFLOW_RULE_WHEN);
}

function rulesEntry(location: string, v: unknown, allowedWhen: readonly string[]): CiRule[] {
  if (!Array.isArray(v)) throw error(location, 'config should be an array of hashes');
  return v.map((rule) => ruleEntry(`${location}:rule`, rule, allowedWhen));
}

function ruleEntry(location: string, v: unknown, allowedWhen: readonly string[]): CiRule {
  if (!isHash(v)) throw error(location, 'config should be a hash');
  const unknown = unknownKeys(v, RULE_KEYS);
  if (unknown.length > 0) throw error(location, `config contains unknown keys: ${unknown.join(', ')}`);
  if (v.size === 0) throw error(location, "config can't be blank");
  const rule: CiRule = {};
  const condition = get(v, 'if');
  if (condition !== undefined) {
    if (!isExpression(condition)) throw error(location, 'if invalid expression syntax');
    rule.if = condition as string;
  }
  const changes = get(v, 'changes');
  if (changes !== undefined) {
    if (!isArrayOfStrings(changes)) throw error(location, 'changes should be an array of strings');
    rule.changes = changes;
  }
  const exists = get(v, 'exists');
  if (exists !== undefined) {
    if (!isArrayOfStrings(exists)) throw error(location, 'exists should be an array of strings');
    if (exists.length > MAX_EXISTS_GLOBS) throw error(location, `exists is too long (maximum is ${MAX_EXISTS_GLOBS} characters)`);
    rule.exists = exists;
  }
  const when = get(v, 'when');
  if (when !== undefined) {
    if (typeof when !== 'string' || !allowedWhen.includes(when)) throw error(location, `when unknown value: ${keyText(when)}`);
    rule.when = when as JobWhen | 'never';
  }
  const allowFailure = get(v, 'allow_failure');
  if (allowFailure !== undefined) {
    if (!isBoolean(allowFailure)) throw error(location, 'allow_failure should be a boolean value');
    rule.allowFailure = allowFailure;
  }
  const variables = entry.variables(`${location}:variables`, get(v, 'variables'));
  if (variables) rule.variables = variables;
  return rule;
}

/** What the rules read about a pipeline. */
export interface RuleContext {
  variables: ReadonlyMap<string, string>;
  /** The paths the push changed; null when there is no such list (a new ref, a tag, an API pipeline): `changes` then holds. */
  changedPaths: readonly string[] | null;
  /** The commit's files, listed only when a rule asks (`exists`). */
  treePaths: readonly string[] | null;
}

/** GitLab's bound on path-and-glob comparisons for `exists`; past it the clause holds. */
const MAX_EXISTS_COMPARISONS = 10_000;

/** The first rule whose clauses all hold, or undefined when none does. */
export function matchingRule(rules: readonly CiRule[], ctx: RuleContext): CiRule | undefined {
  return rules.find((rule) => {
    if (rule.if !== undefined) {
      const e = parseExpression(rule.if);
      if (!e || !evaluateExpression(e, ctx.variables)) return false;
    }
    if (rule.changes !== undefined && ctx.changedPaths !== null && !anyPathMatches(rule.changes, ctx.changedPaths)) return false;
    if (rule.exists !== undefined && !anyPathMatches(rule.exists, ctx.treePaths ?? [], MAX_EXISTS_COMPARISONS)) return false;
    return true;
  });
}

/** Whether any rule of these lists has this clause, so that the pipeline reads git for it. */
export function anyRuleUses(lists: ReadonlyArray<readonly CiRule[] | null>, clause: 'changes' | 'exists'): boolean {
  return lists.some((rules) => rules?.some((rule) => rule[clause] !== undefined) ?? false);
}
