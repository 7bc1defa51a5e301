import {
  get,
  isArrayOfStrings,
  isArrayOfStringsOrRegexps,
  isBlank,
  isBoolean,
  isDuration,
  isHash,
  parseDuration,
  isString,
  keyText,
  structural,
  unknownKeys,
} from './checks';
import * as entry from './entries';
import { RubySymbol } from './load';
import { ENVIRONMENT_NAME, ENVIRONMENT_NAME_MESSAGE, ENVIRONMENT_URL_MAX as URL_MAX, isEnvironmentUrl } from '../environments/rules';
import { parallelEntry } from './parallel';
import { jobRules } from './rules';
import type { ArtifactsWhen, CiArtifacts, CiCache, CiEnvironment, CiNeed, CiRetry, CiRule, CiVariable, JobWhen } from './types';
import { needsEntry } from './needs';
import { retryEntry } from './retry';
import { excludeEntry, reportsEntry } from './reports';
import { inheritEntry, type CiInherit } from './inherit';
import { DEFAULT_KEYS } from './default';

/** A job as written, validated but not yet merged with the globals nor checked against the stages. */
export interface JobEntry {
  name: string;
  stage: string;
  script: string[] | null;
  beforeScript: string[] | null;
  afterScript: string[] | null;
  image: string | null;
  services: string[] | null;
  variables: CiVariable[] | null;
  tags: string[];
  allowFailure: boolean;
  when: JobWhen;
  dependencies: string[] | null;
  artifacts: CiArtifacts | null;
  cache: CiCache | null;
  environment: CiEnvironment | null;
  only: string[] | null;
  except: string[] | null;
  rules: CiRule[] | null;
  parallel: number | null;
  needs: CiNeed[] | null;
  retry: CiRetry | null;
  timeout: number | null;
  interruptible: boolean | null;
  inherit: CiInherit;
  /** `when: delayed`'s wait, as written (`30 minutes`). */
  startIn: string | null;
}

// 8.12's `Node::Job::ALLOWED_KEYS` (reference §6.3), and the later keys Forge reads.
export const JOB_KEYS = [
  'tags',
  'script',
  'only',
  'except',
  'type',
  'image',
  'services',
  'allow_failure',
  'stage',
  'when',
  'artifacts',
  'cache',
  'dependencies',
  'before_script',
  'after_script',
  'variables',
  'environment',
  'extends',
  'rules',
  'parallel',
  // Later GitLab's, run by Forge (yaml/needs.ts, yaml/retry.ts …).
  'needs',
  'retry',
  'timeout',
  'interruptible',
  'inherit',
  'start_in',
] as const;
const JOB_WHEN: readonly JobWhen[] = ['on_success', 'on_failure', 'always', 'manual', 'delayed'];
// GitLab's bound on `start_in` (`ChronicDuration` reads "1 week" as seven days).
const MAX_START_IN = 7 * 24 * 60 * 60;
const ARTIFACTS_KEYS = ['name', 'untracked', 'paths', 'when', 'expire_in', 'exclude', 'reports'] as const;
const ARTIFACTS_WHEN: readonly ArtifactsWhen[] = ['on_success', 'on_failure', 'always'];
const ENVIRONMENT_KEYS = ['name', 'url'] as const;

/**
 * Validates one visible job in 8.12's order: the job's own checks (its config, its name,
 * `tags`, `allow_failure`, `when`, `dependencies`), then its entries one by one.
 */
export function job(key: unknown, config: unknown): JobEntry {
  const name = keyText(key);
  const at = `jobs:${name}`;
  // A job with nothing under it (`rspec:`) is validated as an empty hash: "can't be blank".
  const v = config ?? new Map();
  if (!isHash(v)) throw structural(at, 'config should be a hash');
  const unknown = unknownKeys(v, JOB_KEYS);
  if (unknown.length > 0) throw structural(at, `config contains unknown keys: ${unknown.join(', ')}`);
  if (v.size === 0) throw structural(at, "config can't be blank");
  // The spec's verbatim text for an empty (or null) name.
  if (isBlank(key)) throw structural('jobs:job', "name can't be blank");
  // Psych symbolized string keys; an integer or boolean key is not a symbol.
  if (!(typeof key === 'string' || key instanceof RubySymbol)) {
    throw structural(at, 'name should be a symbol');
  }

  const tags = get(v, 'tags');
  if (tags !== undefined && !isArrayOfStrings(tags)) throw structural(at, 'tags should be an array of strings');
  const allowFailure = get(v, 'allow_failure');
  if (allowFailure !== undefined && !isBoolean(allowFailure)) throw structural(at, 'allow failure should be a boolean value');
  const when = get(v, 'when');
  if (when !== undefined && !JOB_WHEN.includes(when as JobWhen)) {
    throw structural(at, 'when should be on_success, on_failure, always, manual or delayed');
  }
  const dependencies = get(v, 'dependencies');
  if (dependencies !== undefined && !isArrayOfStrings(dependencies)) {
    throw structural(at, 'dependencies should be an array of strings');
  }
  const timeout = timeoutEntry(at, get(v, 'timeout'));
  const interruptible = get(v, 'interruptible');
  if (interruptible !== undefined && !isBoolean(interruptible)) throw structural(at, 'interruptible should be a boolean value');
  const startIn = startInEntry(at, get(v, 'start_in'), when === 'delayed' && get(v, 'rules') === undefined);

  const beforeScript = entry.script(`${at}:before_script`, get(v, 'before_script'));
  const script = commands(`${at}:script`, get(v, 'script'));
  const stage = stageEntry(`${at}:stage`, get(v, 'stage'));
  const type = stageEntry(`${at}:type`, get(v, 'type'));
  const afterScript = entry.script(`${at}:after_script`, get(v, 'after_script'));
  const cache = entry.cache(`${at}:cache`, get(v, 'cache'));
  const image = entry.image(`${at}:image`, get(v, 'image'));
  const services = entry.services(`${at}:services`, get(v, 'services'));
  const only = trigger(`${at}:only`, get(v, 'only'));
  const except = trigger(`${at}:except`, get(v, 'except'));
  const variables = entry.variables(`${at}:variables`, get(v, 'variables'));
  const artifacts = artifactsEntry(`${at}:artifacts`, get(v, 'artifacts'));
  const environment = environmentEntry(`${at}:environment`, get(v, 'environment'));
  const rules = jobRules(at, v);
  const parallel = parallelEntry(at, get(v, 'parallel'));
  const needs = needsEntry(`${at}:needs`, get(v, 'needs'));
  const retry = retryEntry(`${at}:retry`, get(v, 'retry'));
  const inherit = inheritEntry(at, get(v, 'inherit'), DEFAULT_KEYS);

  return {
    name,
    // `stage` wins over its older synonym `type`; `test` when neither is given.
    stage: stage ?? type ?? 'test',
    script,
    beforeScript,
    afterScript,
    image,
    services,
    variables,
    tags: (tags as string[] | undefined) ?? [],
    allowFailure: (allowFailure as boolean | undefined) ?? false,
    when: (when as JobWhen | undefined) ?? 'on_success',
    dependencies: (dependencies as string[] | undefined) ?? null,
    artifacts,
    cache,
    environment,
    only,
    except,
    rules,
    parallel,
    needs,
    retry,
    timeout,
    interruptible: (interruptible as boolean | undefined) ?? null,
    inherit,
    startIn,
  };
}

/**
 * `start_in` (GitLab 11.4): required by `when: delayed`, a duration of at most a week; refused
 * on any other job (GitLab's `absence` check). Kept as written; the wait is read when the job's turn comes.
 */
function startInEntry(at: string, v: unknown, delayed: boolean): string | null {
  if (!delayed) {
    if (v !== undefined) throw structural(at, 'start in should be blank');
    return null;
  }
  if (v === undefined || isBlank(v)) throw structural(at, "start in can't be blank");
  const seconds = parseDuration(v);
  if (seconds === undefined) throw structural(at, 'start in should be a duration');
  if (seconds > MAX_START_IN) throw structural(at, 'start in should not exceed the limit');
  return v as string;
}

// GitLab's `Project::MAX_BUILD_TIMEOUT` (1 month) as ChronicDuration reads it back: 30 days, 10h29m6s.
const MAX_JOB_TIMEOUT = 2_629_746;

/** `timeout: 1h 30m`: a duration text (a bare number is not one), at most a month; in seconds. */
function timeoutEntry(at: string, v: unknown): number | null {
  if (v === undefined) return null;
  const seconds = parseDuration(v);
  if (seconds === undefined) throw structural(at, 'timeout should be a duration');
  if (seconds > MAX_JOB_TIMEOUT) throw structural(at, 'timeout should not exceed the limit');
  return Math.round(seconds);
}

/** `script`: a string (one command) or an array of strings. */
function commands(location: string, v: unknown): string[] | null {
  if (v === undefined) return null;
  if (isString(v)) return [v];
  if (!isArrayOfStrings(v)) throw structural(location, 'config should be a string or an array of strings');
  return v;
}

function stageEntry(location: string, v: unknown): string | null {
  if (v === undefined) return null;
  if (!isString(v)) throw structural(location, 'config should be a string');
  return v;
}

/** `only` / `except`: an array; a bare string is an error in 8.12. */
function trigger(location: string, v: unknown): string[] | null {
  if (v === undefined) return null;
  if (!isArrayOfStringsOrRegexps(v)) throw structural(location, 'config should be an array of strings or regexps');
  return v.map(keyText);
}

function artifactsEntry(location: string, v: unknown): CiArtifacts | null {
  if (v === undefined) return null;
  if (!isHash(v)) throw structural(location, 'config should be a hash');
  const unknown = unknownKeys(v, ARTIFACTS_KEYS);
  if (unknown.length > 0) throw structural(location, `config contains unknown keys: ${unknown.join(', ')}`);
  const out: CiArtifacts = {};
  const name = get(v, 'name');
  if (name !== undefined) {
    if (!isString(name)) throw structural(location, 'name should be a string');
    out.name = name;
  }
  const untracked = get(v, 'untracked');
  if (untracked !== undefined) {
    if (!isBoolean(untracked)) throw structural(location, 'untracked should be a boolean value');
    out.untracked = untracked;
  }
  const paths = get(v, 'paths');
  if (paths !== undefined) {
    if (!isArrayOfStrings(paths)) throw structural(location, 'paths should be an array of strings');
    out.paths = paths;
  }
  const when = get(v, 'when');
  if (when !== undefined) {
    if (!ARTIFACTS_WHEN.includes(when as ArtifactsWhen)) throw structural(location, 'when should be on_success, on_failure or always');
    out.when = when as ArtifactsWhen;
  }
  const expireIn = get(v, 'expire_in');
  if (expireIn !== undefined) {
    if (!isDuration(expireIn)) throw structural(location, 'expire in should be a duration');
    out.expire_in = expireIn as string;
  }
  const exclude = excludeEntry(location, get(v, 'exclude'));
  if (exclude !== undefined) out.exclude = exclude;
  const reports = reportsEntry(`${location}:reports`, get(v, 'reports'));
  if (reports !== undefined) out.reports = reports;
  return out;
}

/** `environment`: a name, or `{ name, url }`. */
function environmentEntry(location: string, v: unknown): CiEnvironment | null {
  if (v === undefined) return null;
  if (!isHash(v) && !isString(v)) throw structural(location, 'config should be a hash or a string');
  const name = isHash(v) ? get(v, 'name') : v;
  if (isBlank(name)) throw structural(location, "name can't be blank");
  if (!isString(name) || !ENVIRONMENT_NAME.test(name)) throw structural(location, `name ${ENVIRONMENT_NAME_MESSAGE}`);
  if (!isHash(v)) return { name };
  const unknown = unknownKeys(v, ENVIRONMENT_KEYS);
  if (unknown.length > 0) throw structural(location, `config contains unknown keys: ${unknown.join(', ')}`);
  const url = get(v, 'url');
  if (url === undefined) return { name };
  if (isString(url) && url.length > URL_MAX) throw structural(location, `url is too long (maximum is ${URL_MAX} characters)`);
  if (!isString(url) || !isEnvironmentUrl(url)) throw structural(location, 'url must be a valid url');
  return { name, url };
}
