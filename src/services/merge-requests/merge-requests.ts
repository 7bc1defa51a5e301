import type { Db } from '../../db/index';
import { changeEvents, notify } from '../notify';
import type { ServiceContext } from '../context';
import type { EventsService } from '../events/events';
import type { ProjectsService } from '../projects/projects';
import type { UsersService } from '../users/users';
import { can, mayUpdateMergeRequest, type Caller, type ProjectStanding } from '../policy';
import { badRequest, conflict, forbidden, grapeError, notFound, recordNotFound, rubyString } from '../../errors';
import { inTransaction } from '../../db/transaction';
import { preparedPerHandle } from '../../db/prepared';
import { nextInternalId } from '../../db/internal-ids';
import { now } from '../../lib/time';
import { setLabels } from '../labels/label-links';
import { mergeRequestSnapshot, recordMergeRequestChangeNotes } from '../issuables/system-notes';
import { announceMergeRequests, type MergeRequestAnnouncement } from './announce';
import { queueMergeStatusCheck } from './checks';
import { loadMergeRequestDetails } from './details';
import { applyMergeRequestFilters, mergeRequestsPage } from './lists';
import { mergeRequestProjectIds } from '../policy-reads';
import { sql } from 'kysely';
import { findMergeRequest, type MergeRequestRef } from './queries';
import { deleteIssuableTraces } from '../issuables/traces';
import { insertVersion, readVersion, type VersionReading } from './versions';
import {
  OPEN_STATES,
  type MergeRequestAttributes,
  type MergeRequestDetails,
  type MergeRequestEnds,
  type MergeRequestFilters,
  type MergeRequestRow,
  type MergeRequestTodos,
  type Project,
  type User,
} from './types';

type Page = { offset: number; limit: number };

/** Project merge requests (GitLab 8.12's `merge_requests.rb` and `MergeRequests::*Service`). */
/** v4 names a merge request by its iid on every route: compiled once. */
const mergeRequestIdByIid = preparedPerHandle((db: Db, projectId: number, iid: number) =>
  db.selectFrom('merge_requests').select('id').where('target_project_id', '=', projectId).where('iid', '=', iid),
);

export class MergeRequestsService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly users: UsersService,
    private readonly projects: ProjectsService,
    private readonly events: EventsService,
    private readonly todos: MergeRequestTodos,
  ) {}

  /** The merge requests whose target is the project. */
  async list(
    project: Project,
    standing: ProjectStanding,
    filters: MergeRequestFilters,
    page: Page,
  ): Promise<{ mergeRequests: MergeRequestDetails[]; total: number }> {
    const { rows, total } = await mergeRequestsPage(this.ctx.db, project.id, filters, page);
    const mergeRequests = await loadMergeRequestDetails(this.ctx.db, this.users, rows, standing.caller?.id ?? null, [project]);
    return { mergeRequests, total };
  }

  /**
   * The merge requests of every project whose merge requests the caller reads (later APIs'
   * `GET /merge_requests`; the door narrows it by author or assignee), the page in one query and its details in a fixed few.
   */
  async listReadable(
    caller: Caller,
    filters: MergeRequestFilters,
    page: Page,
  ): Promise<{ mergeRequests: MergeRequestDetails[]; total: number }> {
    return this.pageReadable(caller, mergeRequestProjectIds(this.ctx.db, caller), filters, page);
  }

  /** The merge requests whose target is one of a group's own projects, as far as the caller reads them (the group's web list). */
  async listForGroup(
    groupId: number,
    caller: Caller,
    filters: MergeRequestFilters,
    page: Page,
  ): Promise<{ mergeRequests: MergeRequestDetails[]; total: number }> {
    const projectIds = mergeRequestProjectIds(this.ctx.db, caller).where('projects.namespace_id', '=', groupId);
    return this.pageReadable(caller, projectIds, filters, page);
  }

  private async pageReadable(
    caller: Caller,
    projectIds: ReturnType<typeof mergeRequestProjectIds>,
    filters: MergeRequestFilters,
    page: Page,
  ): Promise<{ mergeRequests: MergeRequestDetails[]; total: number }> {
    const { db } = this.ctx;
    const query = applyMergeRequestFilters(
      db.selectFrom('merge_requests').where('merge_requests.target_project_id', 'in', projectIds),
      filters,
    );
    const [rows, count] = await Promise.all([
      query
        .selectAll('merge_requests')
        .orderBy(sql.ref(`merge_requests.${filters.orderBy}`), filters.sort)
        .orderBy('merge_requests.id', filters.sort)
        .offset(page.offset)
        .limit(page.limit)
        .execute(),
      query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { mergeRequests: await loadMergeRequestDetails(db, this.users, rows, caller.id), total: Number(count.total) };
  }

  /** The global id of the project's (as target) merge request numbered `iid` (later APIs address them by it): `404 Not found` without one. */
  async idByIid(project: Project, iid: number): Promise<number> {
    const [row] = await mergeRequestIdByIid(this.ctx.db, project.id, iid);
    if (!row) throw recordNotFound();
    return row.id;
  }

  /** One merge request with its details, by id or (v4) by `{ iid }`. */
  async find(project: Project, standing: ProjectStanding, mergeRequest: MergeRequestRef): Promise<MergeRequestDetails> {
    return this.details(await findMergeRequest(this.ctx.db, project, mergeRequest), standing.caller, project);
  }

  /**
   * 8.12's `MergeRequests::CreateService` and the API's `handle_merge_request_errors!`, in their
   * order: the same project and branch (422), a target that is not the source's upstream (422), an
   * open duplicate (409); then the branches are read from git (400 for a missing one or unrelated
   * histories). The route's project is the source; the target is it or the project it was forked from.
   */
  async create(source: Project, actor: User, attributes: MergeRequestAttributes): Promise<MergeRequestDetails> {
    const { target, targetStanding } = await this.targetOf(source, actor, attributes.targetProjectId);
    const ends: MergeRequestEnds = { source, target, sourceBranch: attributes.sourceBranch!, targetBranch: attributes.targetBranch! };
    checkEnds(ends);
    await this.refuseDuplicate(this.ctx.db, branchesOf(ends));
    const given = await this.allowed(target, targetStanding, attributes);
    const reading = await readVersion(this.ctx, ends);
    const created = await inTransaction(this.ctx.db, async (trx) => {
      await this.refuseDuplicate(trx, branchesOf(ends));
      const time = now();
      const mergeRequest = await trx
        .insertInto('merge_requests')
        .values({
          iid: await nextInternalId(trx, target.id, 'merge_requests'),
          target_project_id: target.id,
          source_project_id: source.id,
          source_branch: ends.sourceBranch,
          target_branch: ends.targetBranch,
          author_id: actor.id,
          assignee_id: given.assigneeId ?? null,
          milestone_id: given.milestoneId ?? null,
          title: given.title!,
          description: given.description ?? null,
          locked_from: null,
          locked_at: null,
          merge_commit_sha: null,
          merge_user_id: null,
          merge_commit_message: null,
          merge_error: null,
          created_at: time,
          updated_at: time,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (given.labels?.length) await setLabels(trx, target.id, { type: 'MergeRequest', id: mergeRequest.id }, given.labels);
      await insertVersion(trx, mergeRequest.id, reading);
      await queueMergeStatusCheck(this.ctx, trx, [mergeRequest.id]);
      await this.todos.created(trx, { mergeRequest, project: target, actor });
      await notify(this.ctx, trx, { kind: 'merge_request.new', mergeRequestId: mergeRequest.id, actorId: actor.id });
      await announceMergeRequests(this.ctx, this.events, trx, actor, [
        { mergeRequest, project: target, hookAction: 'open', eventAction: 'opened' },
      ]);
      return mergeRequest;
    });
    return this.details(await this.reread(created), actor, target);
  }

  /**
   * Changes a merge request: developers and up, or its author or assignee (8.12's
   * `update_merge_request`). A new target branch is read from git first and recorded as a new version.
   */
  async update(
    project: Project,
    standing: ProjectStanding,
    actor: User,
    mergeRequestId: number,
    attributes: MergeRequestAttributes,
  ): Promise<MergeRequestDetails> {
    const found = await findMergeRequest(this.ctx.db, project, mergeRequestId);
    if (!mayUpdateMergeRequest(standing, found)) throw forbidden();
    if (attributes.sourceBranch !== undefined) throw badRequest('Source branch cannot be changed');
    const given = await this.allowed(project, standing, attributes);
    const retarget =
      given.targetBranch !== undefined && given.targetBranch !== found.target_branch
        ? await this.retarget(project, found, given.targetBranch)
        : undefined;
    const updated = await inTransaction(this.ctx.db, async (trx) => {
      const current = await findMergeRequest(trx, project, mergeRequestId);
      const before = await mergeRequestSnapshot(trx, current);
      const announcements: MergeRequestAnnouncement[] = [];
      let state = current.state;
      // A merged or locked merge request is neither closed nor reopened (8.12's state machine refused the transition).
      if (given.stateEvent === 'close' && (OPEN_STATES as readonly string[]).includes(state)) {
        state = 'closed';
        announcements.push({ mergeRequest: current, project, hookAction: 'close', eventAction: 'closed' });
      }
      if (given.stateEvent === 'reopen' && state === 'closed') {
        state = 'reopened';
        announcements.push({ mergeRequest: current, project, hookAction: 'reopen', eventAction: 'opened' });
      }
      // A new target branch, or a reopening, must not make a second open merge request between the same branches (8.12's validation on save).
      if (retarget || state !== current.state) {
        const branches = { ...branchesOfRow(current), targetBranch: retarget?.ends.targetBranch ?? current.target_branch };
        await this.refuseDuplicate(trx, { ...branches, state }, current.id);
      }
      const changes = {
        title: given.title,
        description: given.description,
        assignee_id: given.assigneeId,
        milestone_id: given.milestoneId,
        target_branch: retarget?.ends.targetBranch,
      };
      const fieldsGiven = Object.values(changes).some((value) => value !== undefined) || given.labels !== undefined;
      const row = await trx
        .updateTable('merge_requests')
        .set({
          ...changes,
          state,
          closed_by_id: state === current.state ? undefined : state === 'closed' ? actor.id : null,
          updated_at: now(),
        })
        .where('id', '=', current.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      const addedLabels =
        given.labels === undefined ? [] : await setLabels(trx, project.id, { type: 'MergeRequest', id: current.id }, given.labels);
      if (retarget) {
        await insertVersion(trx, current.id, retarget.reading);
        await queueMergeStatusCheck(this.ctx, trx, [current.id]);
      }
      await this.todos.updated(trx, { mergeRequest: row, project, actor }, current);
      await notify(this.ctx, trx, changeEvents('merge_request', current, row, actor.id, addedLabels));
      // The hooks show the merge request as it ends up; 8.12 sent `update` whenever fields besides the state were given.
      for (const announcement of announcements) announcement.mergeRequest = row;
      if (fieldsGiven) announcements.push({ mergeRequest: row, project, hookAction: 'update' });
      await announceMergeRequests(this.ctx, this.events, trx, actor, announcements);
      await recordMergeRequestChangeNotes(trx, actor.id, before, row);
      return row;
    });
    return this.details(await this.reread(updated), actor, project);
  }

  /** Deletes a merge request and what points at it (owners and administrators). An unknown id is 403 as well, as 8.12 answered. */
  async remove(project: Project, standing: ProjectStanding, mergeRequestId: number): Promise<MergeRequestRow> {
    if (!can(standing, 'destroy_merge_request')) throw forbidden();
    return inTransaction(this.ctx.db, async (trx) => {
      const mergeRequest = await trx
        .selectFrom('merge_requests')
        .selectAll()
        .where('id', '=', mergeRequestId)
        .where('target_project_id', '=', project.id)
        .executeTakeFirst();
      if (!mergeRequest) throw forbidden();
      await deleteIssuableTraces(trx, 'MergeRequest', trx.selectFrom('merge_requests').select('id').where('id', '=', mergeRequest.id));
      await trx.deleteFrom('merge_requests').where('id', '=', mergeRequest.id).execute();
      return mergeRequest;
    });
  }

  /**
   * The target project: the source itself, or the project named by `target_project_id`. One the
   * caller may not read is `404 Project Not Found`, where 8.12 went on and told its existence (a
   * 422 naming it the wrong fork): deliberately, a private project stays invisible.
   */
  private async targetOf(source: Project, actor: User, targetProjectId: number | undefined) {
    if (targetProjectId === undefined || targetProjectId === source.id) {
      return { target: source, targetStanding: await this.projects.standing(source, actor) };
    }
    const target = await this.projects.find(targetProjectId);
    const targetStanding = target && (await this.projects.standing(target, actor));
    if (!target || !targetStanding || !can(targetStanding, 'read_project')) throw notFound('Project');
    if (!can(targetStanding, 'read_merge_request')) throw forbidden();
    return { target, targetStanding };
  }

  /** The new ends of a merge request whose target branch changes, checked and read from git before its transaction. */
  private async retarget(
    project: Project,
    mergeRequest: MergeRequestRow,
    targetBranch: string,
  ): Promise<{ ends: MergeRequestEnds; reading: VersionReading }> {
    const source = mergeRequest.source_project_id === project.id ? project : await this.projects.find(mergeRequest.source_project_id ?? -1);
    // The fork it came from is gone: there is no source branch to compare with any more.
    if (!source) throw grapeError(422, ['Source project is not a fork of the target project']);
    const ends: MergeRequestEnds = { source, target: project, sourceBranch: mergeRequest.source_branch, targetBranch };
    checkEnds(ends);
    await this.refuseDuplicate(this.ctx.db, { ...branchesOf(ends), state: mergeRequest.state }, mergeRequest.id);
    return { ends, reading: await readVersion(this.ctx, ends) };
  }

  /**
   * 8.12's `validate_branches`: an open merge request may not repeat another open one between the
   * same branches of the same projects (409, the titles as Ruby inspects an array).
   */
  private async refuseDuplicate(db: Db, ends: Branches & { state?: string }, exceptId?: number): Promise<void> {
    if (ends.state !== undefined && !(OPEN_STATES as readonly string[]).includes(ends.state)) return;
    let query = db
      .selectFrom('merge_requests')
      .select('title')
      .where('target_project_id', '=', ends.targetProjectId)
      .where('source_project_id', '=', ends.sourceProjectId ?? -1)
      .where('source_branch', '=', ends.sourceBranch)
      .where('target_branch', '=', ends.targetBranch)
      .where('state', 'in', [...OPEN_STATES]);
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    const similar = await query.orderBy('id').execute();
    if (similar.length) {
      throw conflict([`Cannot Create: This merge request already exists: [${similar.map((row) => rubyString(row.title)).join(', ')}]`]);
    }
  }

  /**
   * What the caller may set (8.12's `IssuableBaseService#filter_params` on the target project):
   * without `admin_merge_request` there (developers and up) the assignee, milestone and labels are
   * dropped silently; a milestone of another project (or 0) means none; an assignee who is not a
   * user is ignored.
   */
  private async allowed(target: Project, standing: ProjectStanding, attributes: MergeRequestAttributes): Promise<MergeRequestAttributes> {
    const given = { ...attributes };
    if (!can(standing, 'admin_merge_request')) {
      delete given.assigneeId;
      delete given.milestoneId;
      delete given.labels;
    }
    if (given.milestoneId !== undefined && given.milestoneId !== null) {
      const milestone = await this.ctx.db
        .selectFrom('milestones')
        .select('id')
        .where('id', '=', given.milestoneId)
        .where('project_id', '=', target.id)
        .executeTakeFirst();
      if (!milestone) given.milestoneId = null;
    }
    if (given.assigneeId !== undefined && given.assigneeId !== null) {
      const assignee = await this.ctx.db.selectFrom('users').select('id').where('id', '=', given.assigneeId).executeTakeFirst();
      if (!assignee) delete given.assigneeId;
    }
    return given;
  }

  /** The row as it is now: the background check may have changed `merge_status` since the transaction. */
  private async reread(row: MergeRequestRow): Promise<MergeRequestRow> {
    return (await this.ctx.db.selectFrom('merge_requests').selectAll().where('id', '=', row.id).executeTakeFirst()) ?? row;
  }

  private async details(mergeRequest: MergeRequestRow, caller: Caller | null, project: Project): Promise<MergeRequestDetails> {
    return (await loadMergeRequestDetails(this.ctx.db, this.users, [mergeRequest], caller?.id ?? null, [project]))[0];
  }
}

/** What makes two merge requests duplicates of each other. */
interface Branches {
  targetProjectId: number;
  sourceProjectId: number | null;
  sourceBranch: string;
  targetBranch: string;
}

const branchesOf = (ends: MergeRequestEnds): Branches => ({
  targetProjectId: ends.target.id,
  sourceProjectId: ends.source.id,
  sourceBranch: ends.sourceBranch,
  targetBranch: ends.targetBranch,
});

const branchesOfRow = (row: MergeRequestRow): Branches => ({
  targetProjectId: row.target_project_id,
  sourceProjectId: row.source_project_id,
  sourceBranch: row.source_branch,
  targetBranch: row.target_branch,
});

/** The same project and branch at both ends, or a target that is not the source's upstream: 8.12's 422s. */
function checkEnds(ends: MergeRequestEnds): void {
  if (ends.source.id === ends.target.id && ends.sourceBranch === ends.targetBranch) {
    throw grapeError(422, ['You can not use same project/branch for source and target']);
  }
  if (ends.source.id !== ends.target.id && ends.source.forked_from_project_id !== ends.target.id) {
    throw grapeError(422, ['Source project is not a fork of the target project']);
  }
}
