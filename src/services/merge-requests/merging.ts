import type { Db } from '../../db/index';
import { notify } from '../notify';
import type { ServiceContext } from '../context';
import type { EventsService } from '../events/events';
import type { IssuesService } from '../issues/issues';
import type { ProjectsService } from '../projects/projects';
import type { UsersService } from '../users/users';
import type { PushRulesService } from '../repository/push-rules';
import { protectionFor, ruleFor } from '../repository/push-rules';
import { can, mayMergeIntoProtectedBranch, type ProjectStanding } from '../policy';
import { apiError, badRequest, conflict, unauthorized } from '../../errors';
import { inTransaction } from '../../db/transaction';
import { now } from '../../lib/time';
import { refValues } from '../../git/refs';
import { mergeTrees, writeMergeCommit } from '../../git/merge';
import { updateRef, deleteBranch } from '../../git/write';
import { GitStoreError } from '../../git/errors';
import { ZERO_OID } from '../../git/ref-names';
import { repoPathOf } from '../repository/repositories';
import { refsMoved } from '../repository/refs-version';
import { enqueuePushProcessing } from '../repository/pushes';
import { insertSystemNote } from '../issuables/system-notes';
import { announceMergeRequests } from './announce';
import { closesIssues } from './closes-issues';
import { findMergeRequest } from './queries';
import { ACTIVE_PIPELINE, headPipeline } from './head-pipeline';
import { cancelMergeWhenPipelineSucceeds, enableMergeWhenPipelineSucceeds } from './merge-when-pipeline';
import { insertVersion, latestVersions, readVersion, type VersionReading } from './versions';
import { isWorkInProgress } from '../issuables/work-in-progress';
import { OPEN_STATES, type MergeRequestRow, type MergeRequestTodos, type Project, type User } from './types';
import type { VersionContentCache } from './version-contents';

export interface MergeParams {
  mergeCommitMessage?: string;
  shouldRemoveSourceBranch?: boolean;
  /** Merge once the head pipeline succeeds, if one is running (v3 calls it `merge_when_build_succeeds`). */
  mergeWhenPipelineSucceeds?: boolean;
  /** The source head the caller saw; a different head refuses the merge (409). */
  sha?: string;
}

/** What merging needs besides the context. */
export interface MergingDeps {
  events: EventsService;
  projects: ProjectsService;
  issues: IssuesService;
  pushRules: PushRulesService;
  users: UsersService;
  /** Versions' commits, which name the issues a merge closes. */
  contents: VersionContentCache;
  /** Todos hang off merge requests: handed in by the composition root. */
  todos: MergeRequestTodos;
}

const notAllowed = () => apiError(405, '405 Method Not Allowed');
const cannotBeMerged = () => apiError(406, 'Branch cannot be merged');
const shaMismatch = (head: string) => conflict(`SHA does not match HEAD of source branch: ${head}`);

/** Attempts of one merge when pushes move the target branch in between: each makes the merge commit again on the new head. */
const ATTEMPTS = 3;

/** The two heads a merge joins, read from git just before it. */
interface Heads {
  /** The source branch's head, kept in the target repository. */
  source: string;
  /** A version to record first when the source branch moved since the latest one (a push not yet processed). */
  newVersion: VersionReading | undefined;
}

/**
 * PUT …/merge (GitLab 8.12's `MergeRequests::MergeService` and the API's checks, in its order):
 * 401 who may not merge into the target branch, 405 not open / WIP / broken / CI required and not
 * green, 406 conflicts, 409 another head than `sha`. The merge commit is made on the bare
 * repository (`merge-tree`, `commit-tree`) and the target branch moved with compare-and-swap.
 * A merge request is claimed (`locked`) by one conditional update, so of two merges at once one
 * proceeds and the other is refused; a failed merge returns it to the state it was in.
 */
export class MergingService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly deps: MergingDeps,
  ) {}

  async accept(
    project: Project,
    standing: ProjectStanding,
    user: User | null,
    mergeRequestId: number,
    params: MergeParams,
  ): Promise<MergeRequestRow> {
    const mergeRequest = await findMergeRequest(this.ctx.db, project, mergeRequestId);
    if (!user || !(await this.mayMerge(project, standing, mergeRequest.target_branch))) throw unauthorized();
    const source = mergeRequest.source_project_id === project.id ? project : await this.sourceProject(mergeRequest);
    if (!OPEN_STATES.includes(mergeRequest.state as (typeof OPEN_STATES)[number]) || isWorkInProgress(mergeRequest.title))
      throw notAllowed();
    const heads = await this.readHeads(project, source, mergeRequest);
    if (!heads) throw notAllowed();
    const pipeline = await headPipeline(this.ctx.db, mergeRequest, heads.source);
    const pipelineActive = pipeline !== undefined && ACTIVE_PIPELINE.includes(pipeline.status);
    const automatic = params.mergeWhenPipelineSucceeds === true && pipelineActive;
    // 8.12 refused here even a merge asked for when the pipeline succeeds, which made that option
    // useless in projects that require green builds; an automatic merge waits for green anyway.
    if (project.only_allow_merge_if_build_succeeds === 1 && pipeline !== undefined && pipeline.status !== 'success' && !automatic)
      throw notAllowed();
    const message = params.mergeCommitMessage?.trim() ? params.mergeCommitMessage : defaultMergeMessage(mergeRequest);
    // Git keeps messages as C strings (8.12 answered 500 here).
    if (message.includes('\0')) throw badRequest('merge_commit_message contains a NUL byte');
    if (automatic) {
      // 8.12's order: conflicts (406) before another head (409), then the automatic merge.
      if (!(await mergeTrees(repoPathOf(this.ctx, project.id), await this.targetHead(project, mergeRequest), heads.source)).clean)
        throw cannotBeMerged();
      if (params.sha !== undefined && params.sha !== heads.source) throw shaMismatch(heads.source);
      return enableMergeWhenPipelineSucceeds(this.ctx, mergeRequest, user, heads.source, {
        mergeCommitMessage: params.mergeCommitMessage,
        shouldRemoveSourceBranch: params.shouldRemoveSourceBranch,
      });
    }
    return this.merge(project, user, mergeRequest, heads, { ...params, mergeCommitMessage: message });
  }

  private async targetHead(project: Project, mergeRequest: MergeRequestRow): Promise<string> {
    const ref = `refs/heads/${mergeRequest.target_branch}`;
    const head = (await refValues(repoPathOf(this.ctx, project.id), [ref])).get(ref);
    if (head === undefined) throw notAllowed();
    return head;
  }

  /**
   * POST …/cancel_merge_when_build_succeeds: whoever may merge, or the author (8.12's
   * `can_cancel_merge_when_build_succeeds?`). 8.12.0 answered 500 here (its route named a class
   * that did not exist); this cancels, notes it when an automatic merge was on, and answers the
   * merge request.
   */
  async cancelAutomaticMerge(
    project: Project,
    standing: ProjectStanding,
    user: User | null,
    mergeRequestId: number,
  ): Promise<MergeRequestRow> {
    const mergeRequest = await findMergeRequest(this.ctx.db, project, mergeRequestId);
    if (!user) throw unauthorized();
    if (mergeRequest.author_id !== user.id && !(await this.mayMerge(project, standing, mergeRequest.target_branch))) throw unauthorized();
    return inTransaction(this.ctx.db, (trx) => cancelMergeWhenPipelineSucceeds(trx, mergeRequest, user.id));
  }

  /**
   * 8.12's `can_be_merged_by?`: whoever may push to the target branch or merge into it. An
   * unprotected branch takes push access; a protected one a master, or a developer when its rule
   * lets developers push or merge.
   */
  async mayMerge(project: Project, standing: ProjectStanding, branch: string): Promise<boolean> {
    if (!can(standing, 'push_code')) return false;
    const protection = protectionFor(await this.deps.pushRules.ground(project, standing, false), branch);
    if (!protection.protected) return true;
    return mayMergeIntoProtectedBranch(standing, protection);
  }

  /** The source project, or undefined when the fork it came from is gone. */
  private async sourceProject(mergeRequest: MergeRequestRow): Promise<Project | undefined> {
    if (mergeRequest.source_project_id === null) return undefined;
    return this.deps.projects.find(mergeRequest.source_project_id);
  }

  /**
   * The source head to merge, kept in the target repository, and the version to record when the
   * branch moved since the latest one. Undefined when the merge request is "broken" (8.12): a
   * branch is missing, or it has no commits to merge.
   */
  private async readHeads(project: Project, source: Project | undefined, mergeRequest: MergeRequestRow): Promise<Heads | undefined> {
    if (!source) return undefined;
    const ref = `refs/heads/${mergeRequest.source_branch}`;
    const [sourceHead, latest] = await Promise.all([
      refValues(repoPathOf(this.ctx, source.id), [ref]).then((refs) => refs.get(ref)),
      latestVersions(this.ctx.db, [mergeRequest.id]).then((versions) => versions.get(mergeRequest.id)),
    ]);
    if (sourceHead === undefined) return undefined;
    if (latest && latest.head_commit_sha === sourceHead) {
      if (latest.commits_count === 0) return undefined;
      // The version's head is already kept in the target repository.
      return { source: sourceHead, newVersion: undefined };
    }
    const ends = { target: project, source, sourceBranch: mergeRequest.source_branch, targetBranch: mergeRequest.target_branch };
    const reading = await readVersion(this.ctx, ends).catch(() => undefined);
    if (!reading || reading.commitsCount === 0) return undefined;
    return { source: reading.shas.head, newVersion: reading };
  }

  private async merge(
    project: Project,
    user: User,
    mergeRequest: MergeRequestRow,
    heads: Heads,
    params: MergeParams,
  ): Promise<MergeRequestRow> {
    const claimed = await this.claim(mergeRequest);
    if (!claimed) throw notAllowed();
    const message = params.mergeCommitMessage!;
    const removeSource = params.shouldRemoveSourceBranch ?? mergeRequest.force_remove_source_branch === 1;
    let merged: { commitId: string; targetBefore: string };
    try {
      merged = await this.writeMerge(project, user, mergeRequest, heads.source, message, params.sha);
    } catch (error) {
      await this.release(mergeRequest, error);
      throw error;
    }
    await refsMoved(this.ctx, project);
    // Should the records fail after the branch moved, the request is not left locked either.
    const done = await inTransaction(this.ctx.db, async (trx) => {
      const row = await trx
        .updateTable('merge_requests')
        .set({
          state: 'merged',
          locked_from: null,
          locked_at: null,
          merge_status: 'can_be_merged',
          merge_commit_sha: merged.commitId,
          merge_error: null,
          merge_when_build_succeeds: 0,
          merge_user_id: user.id,
          merged_by_id: user.id,
          merge_commit_message: message,
          should_remove_source_branch: removeSource ? 1 : 0,
          updated_at: now(),
        })
        .where('id', '=', mergeRequest.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (heads.newVersion) await insertVersion(trx, mergeRequest.id, heads.newVersion);
      await this.afterMerge(trx, project, user, row);
      // The merge commit is a push to the target branch: its event, hooks and pipeline follow, as
      // after any push (`enqueuePushProcessing`), queued with the merge so one never goes without the other.
      const update = { oldId: merged.targetBefore, newId: merged.commitId, ref: `refs/heads/${mergeRequest.target_branch}` };
      await this.ctx.jobs.enqueue('push.process', { projectId: project.id, userId: user.id, updates: [update] }, trx);
      return row;
    }).catch(async (error: unknown) => {
      await this.release(mergeRequest, error);
      throw error;
    });
    if (removeSource) await this.removeSourceBranch(done, user);
    return done;
  }

  /**
   * What a merge request merged records, here or by a push that merged it by hand (8.12's
   * `PostMergeService`). The issues it closes are closed in the background: finding them reads its
   * commits, which a merge need not wait for.
   */
  async afterMerge(trx: Db, project: Project, user: User, row: MergeRequestRow): Promise<void> {
    await this.ctx.jobs.enqueue('merge_requests.close_issues', { mergeRequestId: row.id, userId: user.id }, trx);
    await this.deps.todos.finished(trx, row);
    await notify(this.ctx, trx, { kind: 'merge_request.merge', mergeRequestId: row.id, actorId: user.id });
    await insertSystemNote(trx, { type: 'MergeRequest', id: row.id, projectId: project.id }, user.id, 'Status changed to merged');
    await announceMergeRequests(this.ctx, this.deps.events, trx, user, [
      { mergeRequest: row, project, hookAction: 'merge', eventAction: 'accepted' },
    ]);
  }

  /** Claims the merge: only one of concurrent merges moves it from open to locked. */
  private async claim(mergeRequest: MergeRequestRow): Promise<boolean> {
    const result = await this.ctx.db
      .updateTable('merge_requests')
      .set((eb) => ({ state: 'locked', locked_from: eb.ref('state'), locked_at: now() }))
      .where('id', '=', mergeRequest.id)
      .where('state', 'in', [...OPEN_STATES])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** A failed merge gives the merge request back in the state it had, with why (8.12's `merge_error`). */
  private async release(mergeRequest: MergeRequestRow, error: unknown): Promise<void> {
    const reason = error instanceof Error ? error.message : String(error);
    await this.ctx.db
      .updateTable('merge_requests')
      .set((eb) => ({
        state: eb.fn.coalesce('locked_from', eb.val('opened')),
        locked_from: null,
        locked_at: null,
        merge_error: reason.slice(0, 1000),
      }))
      .where('id', '=', mergeRequest.id)
      .where('state', '=', 'locked')
      .execute();
  }

  /**
   * Makes the merge commit on the target branch's head and moves the branch to it only if it still
   * points there; when a push moved it meanwhile, merges again on the new head. Local writers of
   * the branch queue on its lock. Conflicts are 406 and leave the branch as it was.
   */
  private async writeMerge(
    project: Project,
    user: User,
    mergeRequest: MergeRequestRow,
    sourceHead: string,
    message: string,
    expectedSha: string | undefined,
  ): Promise<{ commitId: string; targetBefore: string }> {
    const repoPath = repoPathOf(this.ctx, project.id);
    const ref = `refs/heads/${mergeRequest.target_branch}`;
    const identity = { name: user.name, email: user.email };
    return this.ctx.refLocks.run(repoPath, ref, async () => {
      for (let attempt = 1; ; attempt++) {
        const targetHead = (await refValues(repoPath, [ref])).get(ref);
        if (targetHead === undefined) throw notAllowed();
        const result = await writeMergeCommit(repoPath, {
          targetId: targetHead,
          sourceId: sourceHead,
          message,
          author: identity,
          committer: identity,
        });
        if ('conflicts' in result) {
          await this.ctx.db
            .updateTable('merge_requests')
            .set({ merge_status: 'cannot_be_merged' })
            .where('id', '=', mergeRequest.id)
            .execute();
          throw cannotBeMerged();
        }
        // Checked once the merge is known clean, as 8.12 answered conflicts (406) before another head (409).
        if (expectedSha !== undefined && expectedSha !== sourceHead) throw shaMismatch(sourceHead);
        try {
          // The source head needs no keeping here: every version's head is kept in this repository (`readVersion`).
          await updateRef(repoPath, ref, result.commitId, targetHead);
          return { commitId: result.commitId, targetBefore: targetHead };
        } catch (error) {
          if (error instanceof GitStoreError && error.code === 'ref_moved' && attempt < ATTEMPTS) continue;
          throw error;
        }
      }
    });
  }

  /**
   * Removes the merged source branch when asked and the merging user may (8.12's
   * `DeleteBranchService`: push access, not protected, not the default branch). A branch that moved
   * since the merge is left alone, so no pushed commit is lost.
   */
  private async removeSourceBranch(mergeRequest: MergeRequestRow, user: User): Promise<void> {
    const source = await this.sourceProject(mergeRequest);
    if (!source || source.default_branch === mergeRequest.source_branch) return;
    const standing = await this.deps.projects.standing(source, user);
    const repoPath = repoPathOf(this.ctx, source.id);
    const ref = `refs/heads/${mergeRequest.source_branch}`;
    const head = (await refValues(repoPath, [ref])).get(ref);
    if (head === undefined) return;
    const ruling = ruleFor(await this.deps.pushRules.ground(source, standing, false), { oldId: head, newId: ZERO_OID, ref });
    if ('refusal' in ruling) return;
    const merged = (await latestVersions(this.ctx.db, [mergeRequest.id])).get(mergeRequest.id)?.head_commit_sha;
    if (merged !== head) return;
    try {
      await deleteBranch(repoPath, mergeRequest.source_branch, head);
    } catch (error) {
      if (error instanceof GitStoreError) return;
      throw error;
    }
    await refsMoved(this.ctx, source);
    await enqueuePushProcessing(this.ctx, source.id, user.id, [{ oldId: head, newId: ZERO_OID, ref }]);
  }

  /** The issues a merged request closes, closed by the merging user through the issues service (its hooks, notes, todos). */
  async closeIssues(mergeRequestId: number, userId: number): Promise<void> {
    const mergeRequest = await this.ctx.db.selectFrom('merge_requests').selectAll().where('id', '=', mergeRequestId).executeTakeFirst();
    if (mergeRequest?.state !== 'merged') return;
    const [project, user] = await Promise.all([this.deps.projects.find(mergeRequest.target_project_id), this.deps.users.findById(userId)]);
    if (!project || !user) return;
    const standing = await this.deps.projects.standing(project, user);
    const issues = await closesIssues(this.ctx, this.deps.contents, mergeRequest, project);
    for (const issue of issues) {
      if (issue.state === 'closed') continue;
      try {
        await this.deps.issues.update(project, standing, user, issue.id, { stateEvent: 'close' });
      } catch (error) {
        // One the merging user may not close stays open, as in 8.12 (`can?(current_user, :update_issue)`).
        this.ctx.log.warn({ err: error, issueId: issue.id }, 'merge: issue not closed');
      }
    }
  }
}

/** 8.12's `MergeRequest#merge_commit_message`. */
export function defaultMergeMessage(
  mergeRequest: Pick<MergeRequestRow, 'source_branch' | 'target_branch' | 'title' | 'description' | 'iid'>,
): string {
  const parts = [`Merge branch '${mergeRequest.source_branch}' into '${mergeRequest.target_branch}'`, mergeRequest.title];
  if (mergeRequest.description?.trim()) parts.push(mergeRequest.description);
  parts.push(`See merge request !${mergeRequest.iid}`);
  return parts.join('\n\n');
}
