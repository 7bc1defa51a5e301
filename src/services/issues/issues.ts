import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import type { EventsService } from '../events/events';
import type { ProjectsService } from '../projects/projects';
import type { Project } from '../projects/types';
import type { User, UsersService } from '../users/users';
import { can, mayDateIssue, type Caller, type ProjectStanding } from '../policy';
import { badRequest, forbidden, notFound, recordNotFound } from '../../errors';
import { inTransaction } from '../../db/transaction';
import { preparedPerHandle } from '../../db/prepared';
import { nextInternalId } from '../../db/internal-ids';
import { deleteIssuableTraces } from '../issuables/traces';
import { now } from '../../lib/time';
import { emitProjectEvents } from '../hooks/project-events';
import { buildIssueHookData, type IssueHookAction } from './hook-data';
import { loadIssueDetails } from './details';
import { labelTitles, linkLabels, setLabels } from '../labels/label-links';
import { applyIssueFilters, orderIssues } from './lists';
import { projectIssuesPage } from './project-lists';
import { issueProjectIds, mayReadIssue, mayUpdateIssue, readableIssues, readableIssuesIn, seesConfidential } from '../policy-reads';
import { changeEvents, notify } from '../notify';
import type { IssueAttributes, IssueDetails, IssueFilters, IssueRow, IssueTodos } from './types';
import { issueSnapshot, recordIssueChangeNotes, recordIssueCreationNotes, recordIssueMoveNotes } from '../issuables/system-notes';

type Page = { offset: number; limit: number };

/** Whose subscriptions and own confidential issues count: an anonymous reader (id 0) has none. */
const callerIdOf = (standing: ProjectStanding): number => standing.caller?.id ?? 0;
type IssuePage = { issues: IssueDetails[]; total: number };

/** A change to an issue, told to the project's activity and its Issue Hooks in its transaction. */
interface Announcement {
  issue: IssueRow;
  project: Project;
  hookAction: IssueHookAction;
  /** The event's action name; GitLab 8.12 showed a reopened issue as `opened` too. */
  eventAction?: 'opened' | 'closed';
}

/** Project issues (GitLab 8.12's `issues.rb` and `Issues::*Service`). */
/** Every read of one issue starts here: compiled once (per database handle: not in transactions). */
const issueById = preparedPerHandle((db: Db, id: number, projectId: number) =>
  db.selectFrom('issues').selectAll().where('id', '=', id).where('project_id', '=', projectId),
);

/** v4's read of one issue, by its iid: compiled once. */
const fullIssueByIid = preparedPerHandle((db: Db, projectId: number, iid: number) =>
  db.selectFrom('issues').selectAll().where('project_id', '=', projectId).where('iid', '=', iid),
);

/** v4 names an issue by its iid on every route: compiled once. */
const issueByIid = preparedPerHandle((db: Db, projectId: number, iid: number) =>
  db
    .selectFrom('issues')
    .select(['id', 'confidential', 'author_id', 'assignee_id'])
    .where('project_id', '=', projectId)
    .where('iid', '=', iid),
);

export class IssuesService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly users: UsersService,
    private readonly projects: ProjectsService,
    private readonly events: EventsService,
    private readonly todos: IssueTodos,
  ) {}

  /** The caller's own issues, in every project whose issues they may still read. */
  async listAuthored(caller: Caller, filters: IssueFilters, page: Page): Promise<IssuePage> {
    const query = this.ctx.db
      .selectFrom('issues')
      .where('issues.author_id', '=', caller.id)
      .where('issues.project_id', 'in', issueProjectIds(this.ctx.db, caller));
    return this.page(applyIssueFilters(query, filters), filters, page, caller);
  }

  /** Every issue the caller may read, in every project (later APIs' `scope=all`; the door narrows it by author or assignee). */
  async listReadable(caller: Caller, filters: IssueFilters, page: Page): Promise<IssuePage> {
    const query = this.ctx.db.selectFrom('issues').where(readableIssues(this.ctx.db, caller));
    return this.page(applyIssueFilters(query, filters), filters, page, caller);
  }

  /** The issues of a project; confidential ones only where the caller may see them (an anonymous reader: none). */
  async listForProject(project: Project, standing: ProjectStanding, filters: IssueFilters, page: Page): Promise<IssuePage> {
    const callerId = callerIdOf(standing);
    const shape = { filters, seesConfidential: seesConfidential(standing), limit: page.limit };
    const { rows, total } = await projectIssuesPage(this.ctx.db, shape, project.id, callerId, page.offset);
    return { issues: await loadIssueDetails(this.ctx.db, this.users, rows, callerId, [project]), total };
  }

  /** The issues of a group's own projects the caller may read. */
  async listForGroup(groupId: number, caller: Caller, filters: IssueFilters, page: Page): Promise<IssuePage> {
    const query = this.ctx.db
      .selectFrom('issues')
      .where(readableIssues(this.ctx.db, caller, issueProjectIds(this.ctx.db, caller).where('projects.namespace_id', '=', groupId)));
    return this.page(applyIssueFilters(query, filters), filters, page, caller);
  }

  /** A milestone's issues, every state, oldest first; `404 Not found` for a milestone of another project. */
  async listForMilestone(project: Project, standing: ProjectStanding, milestoneId: number, page: Page): Promise<IssuePage> {
    const milestone = await this.ctx.db
      .selectFrom('milestones')
      .select('id')
      .where('id', '=', milestoneId)
      .where('project_id', '=', project.id)
      .executeTakeFirst();
    if (!milestone) throw recordNotFound();
    const caller = standing.caller;
    const query = this.ctx.db
      .selectFrom('issues')
      .where('issues.project_id', '=', project.id)
      .where('issues.milestone_id', '=', milestone.id)
      .where(readableIssuesIn(standing));
    return this.page(query, { orderBy: 'id', sort: 'asc' }, page, caller, [project]);
  }

  private async page(
    query: ReturnType<typeof applyIssueFilters>,
    filters: IssueFilters,
    page: Page,
    caller: Caller | null,
    projects: Project[] = [],
  ): Promise<IssuePage> {
    const [rows, count] = await Promise.all([
      orderIssues(query.selectAll('issues'), filters).offset(page.offset).limit(page.limit).execute(),
      query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { issues: await loadIssueDetails(this.ctx.db, this.users, rows, caller?.id ?? 0, projects), total: Number(count.total) };
  }

  /** One issue of the project by its global id: `404 Not found` when missing, `404 Not Found` when confidential to the caller. */
  async find(project: Project, standing: ProjectStanding, issueId: number): Promise<IssueDetails> {
    const issue = await this.row(this.ctx.db, project, issueId);
    if (!mayReadIssue(standing, issue)) throw notFound();
    return (await loadIssueDetails(this.ctx.db, this.users, [issue], callerIdOf(standing), [project]))[0];
  }

  /**
   * The project's issue numbered `iid`, read in one query (v4's `GET …/issues/:issue_iid`): `404 Not
   * found` when there is none and when it is confidential to the caller, as `idByIid`.
   */
  async findByIid(project: Project, standing: ProjectStanding, iid: number): Promise<IssueDetails> {
    const [issue] = await fullIssueByIid(this.ctx.db, project.id, iid);
    if (!issue || !mayReadIssue(standing, issue)) throw recordNotFound();
    return (await loadIssueDetails(this.ctx.db, this.users, [issue], callerIdOf(standing), [project]))[0];
  }

  /**
   * The global id of the project's issue numbered `iid` (later APIs address issues by it): `404 Not
   * found` when there is none, and when it is confidential to the caller, so a hidden issue is
   * answered as a missing one whatever the route does with it next.
   */
  async idByIid(project: Project, standing: ProjectStanding, iid: number): Promise<number> {
    const [issue] = await issueByIid(this.ctx.db, project.id, iid);
    if (!issue || !mayReadIssue(standing, issue)) throw recordNotFound();
    return issue.id;
  }

  async create(project: Project, standing: ProjectStanding, actor: User, attributes: IssueAttributes): Promise<IssueDetails> {
    const given = await this.allowed(project, standing, attributes);
    const issue = await inTransaction(this.ctx.db, async (trx) => {
      const { issue, announcements } = await this.insert(trx, project, actor, given);
      await this.announce(trx, actor, announcements);
      await recordIssueCreationNotes(trx, project, actor.id, issue);
      await notify(this.ctx, trx, { kind: 'issue.new', issueId: issue.id, actorId: actor.id });
      return issue;
    });
    return this.details(issue, actor, project);
  }

  /** Changes an issue: reporters and up, or its author or assignee (GitLab 8.12's `update_issue`). */
  async update(
    project: Project,
    standing: ProjectStanding,
    actor: User,
    issueId: number,
    attributes: IssueAttributes,
  ): Promise<IssueDetails> {
    const found = await this.row(this.ctx.db, project, issueId);
    if (!this.mayUpdate(standing, found)) throw forbidden();
    const given = await this.allowed(project, standing, attributes);
    const issue = await inTransaction(this.ctx.db, async (trx) => {
      const current = await this.row(trx, project, issueId);
      const before = await issueSnapshot(trx, current);
      const announcements: Announcement[] = [];
      const time = given.updatedAt ?? now();
      let state = current.state;
      if (given.stateEvent === 'close' && state !== 'closed') {
        state = 'closed';
        announcements.push({ issue: current, project, hookAction: 'close', eventAction: 'closed' });
      }
      if (given.stateEvent === 'reopen' && state === 'closed') {
        state = 'reopened';
        announcements.push({ issue: current, project, hookAction: 'reopen', eventAction: 'opened' });
      }
      const changes = {
        title: given.title,
        description: given.description,
        assignee_id: given.assigneeId,
        milestone_id: given.milestoneId,
        due_date: given.dueDate,
        confidential: given.confidential === undefined ? undefined : given.confidential ? (1 as const) : (0 as const),
      };
      const fieldsGiven = Object.values(changes).some((value) => value !== undefined) || given.labels !== undefined;
      const updated = await trx
        .updateTable('issues')
        .set({
          ...changes,
          state,
          closed_by_id: state === current.state ? undefined : state === 'closed' ? actor.id : null,
          updated_at: time,
        })
        .where('id', '=', current.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      const addedLabels =
        given.labels === undefined ? [] : await setLabels(trx, project.id, { type: 'Issue', id: current.id }, given.labels);
      await this.todos.updated(trx, { issue: updated, project, actor }, current);
      await notify(this.ctx, trx, changeEvents('issue', current, updated, actor.id, addedLabels));
      // The hooks show the issue as it ends up; 8.12 sent `update` whenever fields besides the state were given.
      for (const announcement of announcements) announcement.issue = updated;
      if (fieldsGiven) announcements.push({ issue: updated, project, hookAction: 'update' });
      await this.announce(trx, actor, announcements);
      await recordIssueChangeNotes(trx, project, actor.id, before, updated);
      return updated;
    });
    return this.details(issue, actor, project);
  }

  /** Deletes an issue (owners). An unknown id is 403 as well, as 8.12 answered. */
  async remove(project: Project, issueId: number): Promise<IssueRow> {
    return inTransaction(this.ctx.db, async (trx) => {
      const issue = await trx
        .selectFrom('issues')
        .selectAll()
        .where('id', '=', issueId)
        .where('project_id', '=', project.id)
        .executeTakeFirst();
      if (!issue) throw forbidden();
      await deleteIssuableTraces(trx, 'Issue', trx.selectFrom('issues').select('id').where('id', '=', issue.id));
      await trx.deleteFrom('issues').where('id', '=', issue.id).execute();
      return issue;
    });
  }

  /**
   * GitLab 8.12's `Issues::MoveService`: a copy of the issue in the target project (its own iid,
   * labels and milestone matched there by title), the original closed and pointing at it.
   */
  async move(project: Project, standing: ProjectStanding, actor: User, issueId: number, targetId: number): Promise<IssueDetails> {
    const original = await this.row(this.ctx.db, project, issueId);
    if (!mayReadIssue(standing, original)) throw recordNotFound();
    const target = await this.projects.find(targetId);
    const targetStanding = target && (await this.projects.standing(target, actor));
    // A project the caller may not see is not found, where 8.12 told its existence with a 400.
    if (!target || !targetStanding || !can(targetStanding, 'read_project')) throw notFound('Project');
    if (target.id === project.id) throw badRequest('Cannot move issue to project it originates from!');
    if (original.moved_to_id !== null || !can(standing, 'admin_issue') || !can(targetStanding, 'admin_issue')) {
      throw badRequest('Cannot move issue due to insufficient permissions!');
    }
    const moved = await inTransaction(this.ctx.db, async (trx) => {
      const current = await this.row(trx, project, issueId);
      if (current.moved_to_id !== null) throw badRequest('Cannot move issue due to insufficient permissions!');
      const milestone =
        current.milestone_id === null
          ? undefined
          : await trx
              .selectFrom('milestones as theirs')
              .innerJoin('milestones as ours', 'ours.title', 'theirs.title')
              .select('ours.id')
              .where('theirs.id', '=', current.milestone_id)
              .where('ours.project_id', '=', target.id)
              .executeTakeFirst();
      const titles = await labelTitles(trx, { type: 'Issue', id: current.id });
      const existing = titles.length
        ? await trx.selectFrom('labels').select('id').where('project_id', '=', target.id).where('title', 'in', titles).execute()
        : [];
      const { issue: copy, announcements } = await this.insert(
        trx,
        target,
        actor,
        {
          title: current.title,
          description: current.description ?? undefined,
          assigneeId: current.assignee_id,
          milestoneId: milestone?.id ?? null,
          dueDate: current.due_date ?? undefined,
          confidential: current.confidential === 1,
        },
        current.author_id,
      );
      await linkLabels(
        trx,
        { type: 'Issue', id: copy.id },
        existing.map((label) => label.id),
      );
      const closed = await trx
        .updateTable('issues')
        .set({ state: 'closed', closed_by_id: actor.id, moved_to_id: copy.id, updated_at: now() })
        .where('id', '=', current.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      announcements.push({ issue: closed, project, hookAction: 'close', eventAction: 'closed' });
      await this.todos.updated(trx, { issue: closed, project, actor }, current);
      await this.announce(trx, actor, announcements);
      await recordIssueMoveNotes(trx, actor.id, current, project, copy, target);
      await notify(this.ctx, trx, { kind: 'issue.move', issueId: current.id, newIssueId: copy.id, actorId: actor.id });
      return copy;
    });
    return this.details(moved, actor, target);
  }

  private mayUpdate(standing: ProjectStanding, issue: IssueRow): boolean {
    return mayUpdateIssue(standing, issue);
  }

  /**
   * What the caller may set (GitLab 8.12's `IssuableBaseService#filter_params`): below reporter the
   * assignee, milestone and labels are dropped silently; a milestone of another project (or 0) means
   * none; an assignee who is not a user is ignored; the times only for administrators and owners.
   */
  private async allowed(project: Project, standing: ProjectStanding, attributes: IssueAttributes): Promise<IssueAttributes> {
    const given = { ...attributes };
    if (!can(standing, 'admin_issue')) {
      delete given.assigneeId;
      delete given.milestoneId;
      delete given.labels;
    }
    if (!mayDateIssue(standing)) {
      delete given.createdAt;
      delete given.updatedAt;
    }
    if (given.milestoneId !== undefined && given.milestoneId !== null) {
      const milestone = await this.ctx.db
        .selectFrom('milestones')
        .select('id')
        .where('id', '=', given.milestoneId)
        .where('project_id', '=', project.id)
        .executeTakeFirst();
      if (!milestone) given.milestoneId = null;
    }
    if (given.assigneeId !== undefined && given.assigneeId !== null) {
      const assignee = await this.ctx.db.selectFrom('users').select('id').where('id', '=', given.assigneeId).executeTakeFirst();
      if (!assignee) delete given.assigneeId;
    }
    return given;
  }

  /** Inserts a new issue with the next iid of its project; `authorId` differs from the actor on a move. */
  private async insert(trx: Db, project: Project, actor: User, given: IssueAttributes, authorId: number | null = actor.id) {
    const time = now();
    const issue = await trx
      .insertInto('issues')
      .values({
        iid: await nextInternalId(trx, project.id, 'issues'),
        project_id: project.id,
        author_id: authorId,
        assignee_id: given.assigneeId ?? null,
        milestone_id: given.milestoneId ?? null,
        title: given.title!,
        description: given.description ?? null,
        confidential: given.confidential ? 1 : 0,
        due_date: given.dueDate ?? null,
        moved_to_id: null,
        created_at: given.createdAt ?? time,
        updated_at: given.createdAt ?? time,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (given.labels?.length) await setLabels(trx, project.id, { type: 'Issue', id: issue.id }, given.labels);
    await this.todos.created(trx, { issue, project, actor });
    const announcements: Announcement[] = [{ issue, project, hookAction: 'open', eventAction: 'opened' }];
    return { issue, announcements };
  }

  /** Records the events and queues the Issue Hooks of the changes, in order, in their transaction. */
  private async announce(trx: Db, actor: User, announcements: Announcement[]): Promise<void> {
    const assigneeIds = announcements.flatMap(({ issue }) => (issue.assignee_id === null ? [] : [issue.assignee_id]));
    const assignees = assigneeIds.length ? await trx.selectFrom('users').selectAll().where('id', 'in', assigneeIds).execute() : [];
    const assigneeById = new Map(assignees.map((user) => [user.id, user]));
    for (const { issue, project, hookAction, eventAction } of announcements) {
      if (eventAction) {
        await this.events.record(trx, {
          projectId: project.id,
          authorId: actor.id,
          action: eventAction,
          targetId: issue.id,
          targetType: 'Issue',
          targetTitle: issue.title,
        });
      }
      const assignee = issue.assignee_id === null ? undefined : assigneeById.get(issue.assignee_id);
      const payload = buildIssueHookData(issue, actor, assignee, project, this.ctx.config, hookAction);
      await emitProjectEvents(this.ctx, trx, project.id, 'issues_events', 'Issue Hook', [payload]);
    }
  }

  private async row(db: Db, project: Project, issueId: number): Promise<IssueRow> {
    const [issue] = await issueById(db, issueId, project.id);
    if (!issue) throw recordNotFound();
    return issue;
  }

  private async details(issue: IssueRow, caller: Caller, project: Project): Promise<IssueDetails> {
    return (await loadIssueDetails(this.ctx.db, this.users, [issue], caller.id, [project]))[0];
  }
}
