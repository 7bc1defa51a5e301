import type { Project } from '../projects/types';
import type { SettingsService } from '../settings/settings';
import { can, mayChangeTag, mayPushToProtectedBranch, type ProjectStanding } from '../policy';
import { protectionOf, type BranchProtection, type ProtectedBranch, type ProtectedBranchesService } from './protected-branches';
import { ZERO_OID } from '../../git/ref-names';
import type { RefUpdate } from '../../git/ref-update';

/** Why a ref update is refused, in GitLab 8.12's words (`git push` shows them). */
export const PUSH_REFUSALS = {
  push: 'You are not allowed to push code to this project.',
  protectedPush: 'You are not allowed to push code to protected branches on this project.',
  protectedDelete: 'You are not allowed to delete protected branches from this project.',
  protectedForce: 'You are not allowed to force push code to a protected branch on this project.',
  changeTag: 'You are not allowed to change existing tags on this project.',
} as const;

/** What decides a push to one project: who pushes, the protected branch rules, and whether the first branch of an empty project is protected. */
export interface PushGround {
  standing: ProjectStanding;
  rules: ProtectedBranch[];
  /** GitLab 8.12: while a project is empty, a protecting `default_branch_protection` (2 or 3) protects whatever branch comes first. */
  emptyProtected: boolean;
}

/** The answer for one ref update: refused with a message, allowed only as a fast-forward (a protected branch), or allowed. */
export type RefRuling = { refusal: string } | { fastForwardOnly: true } | Record<string, never>;

export interface PushVerdict {
  rejections: Array<{ ref: string; message: string }>;
  /** Refs that may only move forward; whether an update is a force push is known once the pack is in. */
  fastForwardOnly: string[];
}

/** How a branch is protected for this push. */
export function protectionFor(ground: PushGround, branch: string): BranchProtection {
  const protection = protectionOf(ground.rules, branch);
  return ground.emptyProtected ? { ...protection, protected: true } : protection;
}

/**
 * `Gitlab::Checks::ChangeAccess` of GitLab 8.12, the one push rule of every way into a repository
 * (git over HTTP, the branches and files APIs): developers push to unprotected branches and to
 * protected ones that let developers push; masters push anywhere; nobody deletes a protected
 * branch or force-pushes to it; only masters move an existing tag.
 */
export function ruleFor(ground: PushGround, update: RefUpdate): RefRuling {
  const change = update.oldId === ZERO_OID ? 'create' : update.newId === ZERO_OID ? 'delete' : 'update';
  return rule(ground, update.ref, change);
}

/** Whether the caller may add a commit on `branch` (the files API): a ref update that only moves forward. */
export function mayCommitTo(ground: PushGround, branch: string): boolean {
  return !('refusal' in rule(ground, `refs/heads/${branch}`, 'update'));
}

/**
 * `mayCommitTo` for a branch whose protection is already known (a listed branch's, from the same
 * rules): the rules need not be read again. A repository with branches is not empty.
 */
export function mayCommitToBranch(standing: ProjectStanding, protection: BranchProtection): boolean {
  return can(standing, 'push_code') && (!protection.protected || mayPushToProtectedBranch(standing, protection));
}

function rule(ground: PushGround, ref: string, change: 'create' | 'update' | 'delete'): RefRuling {
  if (!can(ground.standing, 'push_code')) return { refusal: PUSH_REFUSALS.push };
  if (ref.startsWith('refs/heads/')) {
    const protection = protectionFor(ground, ref.slice('refs/heads/'.length));
    if (!protection.protected) return {};
    if (change === 'delete') return { refusal: PUSH_REFUSALS.protectedDelete };
    if (!mayPushToProtectedBranch(ground.standing, protection)) return { refusal: PUSH_REFUSALS.protectedPush };
    return change === 'create' ? {} : { fastForwardOnly: true };
  }
  if (ref.startsWith('refs/tags/') && change !== 'create' && !mayChangeTag(ground.standing)) return { refusal: PUSH_REFUSALS.changeTag };
  return {};
}

/** The rule for every update of a push; any refusal refuses the whole push (as GitLab's pre-receive check did). */
export function judgePush(ground: PushGround, updates: RefUpdate[]): PushVerdict {
  const verdict: PushVerdict = { rejections: [], fastForwardOnly: [] };
  for (const update of updates) {
    const ruling = ruleFor(ground, update);
    if ('refusal' in ruling) verdict.rejections.push({ ref: update.ref, message: ruling.refusal });
    else if ('fastForwardOnly' in ruling) verdict.fastForwardOnly.push(update.ref);
  }
  return verdict;
}

/** Loads what a push rule needs. */
export class PushRulesService {
  constructor(
    private readonly protectedBranches: ProtectedBranchesService,
    private readonly settings: SettingsService,
  ) {}

  /** `empty`: the repository has no branch yet (the caller knows how to tell cheaply). */
  async ground(project: Project, standing: ProjectStanding, empty: boolean): Promise<PushGround> {
    const [rules, settings] = await Promise.all([this.protectedBranches.list(project.id), empty ? this.settings.get() : undefined]);
    const emptyProtected = settings !== undefined && (settings.default_branch_protection === 2 || settings.default_branch_protection === 3);
    return { standing, rules, emptyProtected };
  }

  async judge(project: Project, standing: ProjectStanding, updates: RefUpdate[], empty: boolean): Promise<PushVerdict> {
    return judgePush(await this.ground(project, standing, empty), updates);
  }
}
