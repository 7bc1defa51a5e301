import type { BuildVariable } from '../builds/variables';
import { mergeVariables } from '../yaml/entries';
import { matchingRule, type RuleContext } from '../yaml/rules';
import type { CiConfig, CiJob, CiVariable } from '../yaml/types';

/** GitLab's words when `workflow:rules` make no pipeline. */
export const FILTERED_BY_WORKFLOW = 'Pipeline filtered out by workflow rules.';

/** What the rules of one pipeline read, the variables aside. */
export interface PipelineRuleFacts {
  /** The pipeline's predefined variables (`pipelineVariables`). */
  predefined: readonly BuildVariable[];
  /** The project's own (secret) variables: they win over the file's, as in a job. */
  secrets: readonly { key: string; value: string }[];
  changedPaths: readonly string[] | null;
  treePaths: readonly string[] | null;
}

/**
 * The jobs `workflow:rules` and each job's `rules` let into the pipeline, each with what its
 * matching rule sets (`when`, `allow_failure`, `variables`); undefined when the workflow makes none.
 * Jobs without `rules` pass as given (only/except chose them already).
 */
export function applyRules(config: CiConfig, jobs: readonly CiJob[], facts: PipelineRuleFacts): CiJob[] | undefined {
  const context = (yaml: readonly CiVariable[]): RuleContext => ({
    variables: new Map([...facts.predefined, ...yaml, ...facts.secrets].map((v): [string, string] => [v.key, v.value ?? ''])),
    changedPaths: facts.changedPaths,
    treePaths: facts.treePaths,
  });
  if (config.workflowRules) {
    const rule = matchingRule(config.workflowRules, context(config.variables));
    if (!rule || rule.when === 'never') return undefined;
  }
  return jobs.flatMap((job): CiJob[] => {
    if (!job.rules) return [job];
    const rule = matchingRule(job.rules, context(job.variables));
    if (!rule || rule.when === 'never') return [];
    return [
      {
        ...job,
        when: rule.when ?? job.when,
        allowFailure: rule.allowFailure ?? job.allowFailure,
        variables: rule.variables ? mergeVariables(job.variables, rule.variables) : job.variables,
      },
    ];
  });
}
