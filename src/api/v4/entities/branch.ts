import { Type, type Static } from '@sinclair/typebox';
import type { BranchFacts, BranchView } from '../../../services/repository/branches';
import { Commit4, presentCommit } from './commit';

/** GitLab 11's `Entities::Branch`. */
export const Branch4 = Type.Object({
  name: Type.String(),
  commit: Commit4,
  merged: Type.Boolean(),
  protected: Type.Boolean(),
  developers_can_push: Type.Boolean(),
  developers_can_merge: Type.Boolean(),
  can_push: Type.Boolean(),
  default: Type.Boolean(),
});

export function presentBranch(branch: BranchView, facts: BranchFacts): Static<typeof Branch4> {
  return {
    name: branch.name,
    commit: presentCommit(branch.commit),
    merged: facts.merged,
    protected: branch.protected,
    developers_can_push: branch.developersCanPush,
    developers_can_merge: branch.developersCanMerge,
    can_push: facts.canPush,
    default: facts.default,
  };
}
