import { CiConfigError, isBlank, isHash, isArrayOfStrings, keyText, get, structural } from './checks';
import * as entry from './entries';
import { applyDefault } from './default';
import { resolveExtends } from './extends';
import { job, JOB_KEYS, type JobEntry } from './job';
import { expandParallel } from './parallel';
import { workflowRules } from './rules';
import { checkNeeds } from './needs';
import { inherits } from './inherit';
import { DisallowedValue, RubySymbol } from './load';
import type { CiConfig } from './types';

/**
 * From the loaded YAML to a `CiConfig`, in 8.12's order: the global entries, then the jobs
 * (their structure), then the logical checks (stages and dependencies) of
 * `Ci::GitlabCiYamlProcessor#validate!`. Throws `CiConfigError` with the first message.
 */

// The reserved top-level keys; every other key is a job (reference §6.2).
// `default`, `workflow` and `include` are later GitLab's.
const GLOBAL_KEYS = [
  'image',
  'services',
  'before_script',
  'after_script',
  'variables',
  'stages',
  'types',
  'cache',
  'default',
  'workflow',
  'include',
];
export const DEFAULT_STAGES: readonly string[] = ['build', 'test', 'deploy'];
const isGlobal = (k: unknown) => (typeof k === 'string' || k instanceof RubySymbol) && GLOBAL_KEYS.includes(keyText(k));
// Hidden jobs (`.name`) are templates: never run, only required to hold something.
const hidden = (k: unknown) => keyText(k).startsWith('.');

export function buildConfig(loaded: unknown): CiConfig {
  if (containsDisallowed(loaded)) throw new CiConfigError('Undefined error');
  // `Gitlab::Ci::Config::Loader`: an empty file, a scalar or a list is not a configuration.
  if (!isHash(loaded)) throw new CiConfigError('Invalid configuration format');
  // Includes were merged by the caller that could read them; here one is a file's own mistake.
  if (get(loaded, 'include') !== undefined) throw new CiConfigError('include config is not supported here: the file has no project');
  const isJobKey = (k: unknown) => !isGlobal(k);
  // GitLab's order: templates extended first, then the defaults given to jobs lacking them.
  const root = applyDefault(resolveExtends(loaded, isJobKey), JOB_KEYS, (k) => isJobKey(k) && !hidden(k));

  const beforeScript = entry.script('before_script', get(root, 'before_script'));
  const image = entry.image('image', get(root, 'image'));
  const services = entry.services('services', get(root, 'services'));
  const afterScript = entry.script('after_script', get(root, 'after_script'));
  const variables = entry.variables('variables', get(root, 'variables'), ['value', 'description']) ?? [];
  const stages = stagesEntry('stages', get(root, 'stages'));
  const types = stagesEntry('types', get(root, 'types'));
  const cache = entry.cache('cache', get(root, 'cache'));
  const workflow = workflowRules(get(root, 'workflow'));

  const jobKeys = [...root].filter(([k]) => !isGlobal(k));
  if (!jobKeys.some(([k]) => !hidden(k))) throw structural('jobs', 'config should contain at least one visible job');
  const entries: JobEntry[] = [];
  for (const [k, v] of jobKeys) {
    if (hidden(k)) {
      if (isBlank(v)) throw structural(`jobs:${keyText(k)}`, "config can't be blank");
    } else {
      entries.push(job(k, v));
    }
  }

  // `types` is the older name of `stages`, read only when `stages` is absent.
  // A copy, so that a caller changing one configuration's stages changes no other.
  const stageList = stages ?? types ?? [...DEFAULT_STAGES];
  checkLogic(entries, stageList);

  return {
    stages: stageList,
    image,
    services,
    beforeScript,
    afterScript,
    variables,
    cache,
    workflowRules: workflow,
    jobs: expandParallel(
      entries.map((e) => {
        // Top-level `image`, `services`, scripts and `cache` are defaults too: `inherit: default:` decides.
        const takes = (key: string) => inherits(e.inherit.default, key);
        const jobBefore = e.beforeScript ?? (takes('before_script') ? beforeScript : null);
        const globalVariables = variables.filter((v) => inherits(e.inherit.variables, v.key));
        return {
          name: e.name,
          stage: e.stage,
          stageIdx: stageList.indexOf(e.stage),
          script: e.script ?? [],
          beforeScript: jobBefore,
          afterScript: e.afterScript ?? (takes('after_script') ? afterScript : null),
          commands: [...(jobBefore ?? []), ...(e.script ?? [])].join('\n'),
          image: e.image ?? (takes('image') ? image : null),
          services: e.services ?? (takes('services') ? services : null),
          variables: entry.mergeVariables(globalVariables, e.variables ?? []),
          tags: e.tags,
          allowFailure: e.allowFailure,
          when: e.when,
          dependencies: e.dependencies,
          artifacts: e.artifacts,
          cache: e.cache ?? (takes('cache') ? cache : null),
          environment: e.environment,
          only: e.only,
          except: e.except,
          rules: e.rules,
          parallel: e.parallel,
          needs: e.needs,
          retry: e.retry,
          timeout: e.timeout,
          interruptible: e.interruptible,
          startIn: e.startIn,
        };
      }),
    ),
  };
}

function stagesEntry(location: string, v: unknown): string[] | null {
  if (v === undefined) return null;
  if (!isArrayOfStrings(v)) throw structural(location, 'config should be an array of strings');
  return v;
}

/**
 * The processor's own checks, job by job in file order; their messages keep the job's case
 * and are not lower-cased.
 */
function checkLogic(jobs: JobEntry[], stages: string[]): void {
  const byName = new Map(jobs.map((j) => [j.name, j]));
  for (const j of jobs) {
    if (!stages.includes(j.stage)) {
      throw new CiConfigError(`${j.name} job: stage parameter should be ${stages.join(', ')}`);
    }
    for (const dep of j.dependencies ?? []) {
      const other = byName.get(dep);
      if (!other) throw new CiConfigError(`${j.name} job: undefined dependency: ${dep}`);
      if (!(stages.indexOf(other.stage) < stages.indexOf(j.stage))) {
        throw new CiConfigError(`${j.name} job: dependency ${dep} is not defined in prior stages`);
      }
    }
    checkNeeds(j, byName, stages);
  }
}

/** Whether safe_load would have refused a value somewhere (a date or a time). */
function containsDisallowed(v: unknown): boolean {
  if (v instanceof DisallowedValue) return true;
  if (Array.isArray(v)) return v.some(containsDisallowed);
  if (v instanceof Map) return [...v].some(([k, val]) => containsDisallowed(k) || containsDisallowed(val));
  return false;
}
