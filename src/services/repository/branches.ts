import type { ServiceContext } from '../context';
import type { Project } from '../projects/types';
import type { ProjectStanding } from '../policy';
import { protectionOf, type BranchProtection, type ProtectedBranchesService } from './protected-branches';
import { mayCommitToBranch, ruleFor, type PushRulesService } from './push-rules';
import { branchesMergedInto } from '../../git/containing';
import { enqueuePushProcessing } from './pushes';
import { repoPathOf } from './repositories';
import { badRequest, notFound, notFoundMessage } from '../../errors';
import { defaultBranch, findBranch, type Branch } from '../../git/refs';
import { refsMoved, refsOf } from './refs-version';
import { createBranch, deleteBranch, deleteBranches } from '../../git/write';
import { GitStoreError } from '../../git/errors';
import { resolveCommitId } from '../../git/commits';
import { isValidBranchName, ZERO_OID } from '../../git/ref-names';
import type { Commit } from '../../git/objects';
import type { MergedIntoBranch } from '../../git/refs-cache';

export interface BranchView extends BranchProtection {
  name: string;
  commit: Commit;
}

/** What a branch is besides its protection: GitLab 9+ shows these with every branch. */
export interface BranchFacts {
  /** Merged into the default branch (and not at its head). */
  merged: boolean;
  default: boolean;
  /** The caller may push to it. */
  canPush: boolean;
}

/** Branches of a project's repository and their protection. */
export class BranchesService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly protectedBranches: ProtectedBranchesService,
    private readonly pushRules: PushRulesService,
  ) {}

  async list(project: Project): Promise<BranchView[]> {
    const [branches, rules] = await Promise.all([
      refsOf(this.ctx, project).then((refs) => refs.branches()),
      this.protectedBranches.list(project.id),
    ]);
    return branches.map((branch) => viewOf(branch, protectionOf(rules, branch.name)));
  }

  async find(project: Project, name: string): Promise<BranchView> {
    const [branch, rules] = await Promise.all([this.branch(project, name), this.protectedBranches.list(project.id)]);
    return viewOf(branch, protectionOf(rules, name));
  }

  /**
   * Protects a branch by an exact rule. A new rule lets developers push (merge) only when the flag
   * says true; an existing rule changes only where a flag is given (undefined leaves it), as in 8.12.
   */
  async protect(project: Project, name: string, flags: { developersCanPush?: boolean; developersCanMerge?: boolean }): Promise<BranchView> {
    await this.branch(project, name);
    const existing = (await this.protectedBranches.list(project.id)).find((rule) => rule.name === name);
    await this.protectedBranches.protect(project.id, name, {
      developersCanPush: flags.developersCanPush ?? existing?.developers_can_push === 1,
      developersCanMerge: flags.developersCanMerge ?? existing?.developers_can_merge === 1,
    });
    return this.find(project, name);
  }

  /** Removes the branch's exact rule; a matching wildcard rule still protects it. */
  async unprotect(project: Project, name: string): Promise<BranchView> {
    await this.branch(project, name);
    await this.protectedBranches.unprotect(project.id, name);
    return this.find(project, name);
  }

  /** In GitLab's order: the name, then whether it exists, then the ref, then the push rules (its pre-receive hook). */
  async create(project: Project, standing: ProjectStanding, userId: number, name: string, ref: string): Promise<BranchView> {
    const repoPath = repoPathOf(this.ctx, project.id);
    if (!isValidBranchName(name)) throw badRequest('Branch name is invalid');
    // A repository with a commit to branch from is not empty.
    const [existing, target, ground] = await Promise.all([
      findBranch(this.ctx.git, repoPath, name),
      resolveCommitId(this.ctx.git, repoPath, ref),
      this.pushRules.ground(project, standing, false),
    ]);
    if (existing) throw badRequest('Branch already exists');
    if (target === undefined) throw badRequest('Invalid reference name');
    const ruling = ruleFor(ground, { oldId: ZERO_OID, newId: target, ref: `refs/heads/${name}` });
    if ('refusal' in ruling) throw badRequest(ruling.refusal);
    try {
      await createBranch(this.ctx.git, repoPath, name, target);
    } catch (error) {
      throw createFailure(error);
    }
    await refsMoved(this.ctx, project);
    await enqueuePushProcessing(this.ctx, project.id, userId, [{ oldId: ZERO_OID, newId: target, ref: `refs/heads/${name}` }]);
    return this.find(project, name);
  }

  /**
   * Deletes a branch, never the HEAD branch nor a protected one. GitLab answered 405 for those two;
   * the spec says 400 with an explaining message, which is what this does.
   */
  async remove(project: Project, userId: number, name: string): Promise<void> {
    const repoPath = repoPathOf(this.ctx, project.id);
    const [branch, head, rules] = await Promise.all([
      findBranch(this.ctx.git, repoPath, name),
      defaultBranch(repoPath),
      this.protectedBranches.list(project.id),
    ]);
    if (!branch) throw noSuchBranch();
    if (name === head) throw badRequest('Cannot remove HEAD branch');
    if (protectionOf(rules, name).protected) throw badRequest('Protected branch cant be removed');
    try {
      await deleteBranch(repoPath, name, branch.commit.id);
    } catch (error) {
      if (error instanceof GitStoreError && error.code === 'ref_missing') throw noSuchBranch();
      if (error instanceof GitStoreError && error.code === 'ref_moved') throw badRequest('Failed to remove branch');
      throw error;
    }
    await refsMoved(this.ctx, project);
    await enqueuePushProcessing(this.ctx, project.id, userId, [{ oldId: branch.commit.id, newId: ZERO_OID, ref: `refs/heads/${name}` }]);
  }

  /**
   * The facts of each given branch for this caller, in the order given. What is merged is asked of
   * git once per refs snapshot and default branch; the rest is worked out here, with no query.
   */
  async facts(project: Project, standing: ProjectStanding, branches: BranchView[]): Promise<BranchFacts[]> {
    const head = project.default_branch ?? (await defaultBranch(repoPathOf(this.ctx, project.id)));
    // The refs kept under the project's refs version: no `for-each-ref` per read.
    const { headId, merged } = head === undefined ? NOT_MERGED : await (await refsOf(this.ctx, project)).mergedIntoBranch(head);
    return branches.map((branch) => ({
      merged: branch.name !== head && merged.has(branch.name) && branch.commit.id !== headId,
      default: branch.name === head,
      // The view's protection is the push rules' own reading of the same rules.
      canPush: mayCommitToBranch(standing, branch),
    }));
  }

  /**
   * Deletes every branch merged into the default branch, but the default branch and protected ones
   * (GitLab's `DeleteMergedBranchesService`, which it ran in the background). All in one ref
   * transaction: when a branch moved meanwhile, none is removed and the caller may ask again.
   */
  async removeMerged(project: Project, userId: number): Promise<void> {
    const repoPath = repoPathOf(this.ctx, project.id);
    const [branches, rules] = await Promise.all([this.list(project), this.protectedBranches.list(project.id)]);
    const views = new Map(branches.map((branch) => [branch.name, branch]));
    const head = project.default_branch ?? (await defaultBranch(repoPath));
    const headId = head === undefined ? undefined : views.get(head)?.commit.id;
    if (headId === undefined) return;
    const doomed = (await branchesMergedInto(repoPath, headId)).filter(
      (name) => name !== head && !protectionOf(rules, name).protected && views.has(name),
    );
    if (doomed.length === 0) return;
    try {
      await deleteBranches(
        repoPath,
        doomed.map((name) => ({ name, expected: views.get(name)!.commit.id })),
      );
    } catch (error) {
      if (error instanceof GitStoreError) return;
      throw error;
    }
    await refsMoved(this.ctx, project);
    const updates = doomed.map((name) => ({ oldId: views.get(name)!.commit.id, newId: ZERO_OID, ref: `refs/heads/${name}` }));
    await enqueuePushProcessing(this.ctx, project.id, userId, updates);
  }

  private async branch(project: Project, name: string): Promise<Branch> {
    const branch = await (await refsOf(this.ctx, project)).branch(name);
    if (!branch) throw notFound('Branch');
    return branch;
  }
}

const NOT_MERGED: MergedIntoBranch = { headId: undefined, merged: new Set<string>() };

/** A branch with its protection, as one literal: spreading the two cost more than the rest of a list. */
function viewOf(branch: Branch, protection: BranchProtection): BranchView {
  return {
    name: branch.name,
    commit: branch.commit,
    protected: protection.protected,
    developersCanPush: protection.developersCanPush,
    developersCanMerge: protection.developersCanMerge,
    nobodyCanPush: protection.nobodyCanPush,
    nobodyCanMerge: protection.nobodyCanMerge,
  };
}

const noSuchBranch = () => notFoundMessage('No such branch');

function createFailure(error: unknown): unknown {
  if (!(error instanceof GitStoreError)) return error;
  switch (error.code) {
    case 'ref_exists':
      return badRequest('Branch already exists');
    // `a/b` next to a branch `a` (or the other way round): git cannot store both; 8.12 answered 500.
    case 'ref_name_conflict':
      return badRequest('Branch name conflicts with an existing branch');
    default:
      return error;
  }
}
