import type { ServiceContext } from '../../context';
import type { Project } from '../../projects/types';
import { pipelineVariables, ZERO_SHA } from '../builds/variables';
import { anyRuleUses } from '../yaml/rules';
import { isProtectedRef, variablesForRef } from '../builds/protected-ref';
import type { CiConfig } from '../yaml/types';
import { changedFilePaths } from '../../../git/counts';
import { listTreeRecursive } from '../../../git/tree';
import { repositoryPath } from '../../../git/paths';
import type { PipelineRuleFacts } from './rules-apply';

/** What is known of a pipeline being planned, for its rules. */
export interface PlannedPipeline {
  ref: string;
  tag: boolean;
  sha: string;
  beforeSha: string;
  /** `push`, `trigger` or `api` (GitLab's `CI_PIPELINE_SOURCE`). */
  source: string;
  message: string;
}

/**
 * Reads what the file's rules need, and only that: the project's variables, the paths the push
 * changed (for `changes`; none for a new ref, a tag or a pipeline not pushed, where `changes`
 * holds as in GitLab) and the commit's files (for `exists`).
 */
export async function ruleFacts(ctx: ServiceContext, project: Project, p: PlannedPipeline, config: CiConfig): Promise<PipelineRuleFacts> {
  const lists = [config.workflowRules, ...config.jobs.map((j) => j.rules)];
  const repoPath = repositoryPath(ctx.config.dataDir, project.id);
  const pushed = p.source === 'push' && !p.tag && p.beforeSha !== ZERO_SHA;
  const [secrets, refProtected, changedPaths, tree] = await Promise.all([
    ctx.db.selectFrom('ci_variables').select(['key', 'value', 'protected']).where('project_id', '=', project.id).orderBy('id').execute(),
    isProtectedRef(ctx.db, project.id, p.ref, p.tag),
    pushed && anyRuleUses(lists, 'changes') ? changedFilePaths(repoPath, p.beforeSha, p.sha) : null,
    anyRuleUses(lists, 'exists') ? listTreeRecursive(ctx.git, repoPath, p.sha) : undefined,
  ]);
  const fullPath = `${project.namespace.path}/${project.path}`;
  return {
    predefined: pipelineVariables(
      { ...p, defaultBranch: project.default_branch, refProtected },
      { id: project.id, path: project.path, namespacePath: project.namespace.path, webUrl: `${ctx.config.externalUrl}/${fullPath}` },
    ),
    // Stored sealed; a rule compares the value a job would be given, protected ones on protected refs only.
    secrets: variablesForRef(secrets, refProtected).map((s) => ({ key: s.key, value: ctx.secrets.unseal(s.value) })),
    changedPaths,
    treePaths: tree ? tree.filter((e) => e.type === 'blob').map((e) => e.path) : null,
  };
}
