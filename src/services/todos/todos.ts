import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/schema';
import type { ServiceContext } from '../context';
import type { Project } from '../projects/types';
import type { User, UsersService } from '../users/users';
import type { IssueDetails } from '../issues/types';
import { confidentialFilter, issueProjectIds, mayReadIssue, mergeRequestProjectIds } from '../policy-reads';
import { loadIssueDetails } from '../issues/details';
import type { MergeRequestDetails } from '../merge-requests/types';
import { loadMergeRequestDetails } from '../merge-requests/details';
import { findMergeRequest } from '../merge-requests/queries';
import { notFound, notModified, recordNotFound } from '../../errors';
import { inTransaction } from '../../db/transaction';
import { now } from '../../lib/time';
import type { Caller, ProjectStanding } from '../policy';
import { createTodos, markPendingDone, TODO_ACTIONS, type TodoRow, type TodoTarget } from './queries';

/** GitLab 8.12's `TodosFinder` parameters; each undefined one does not filter. */
export interface TodoFilters {
  action?: number;
  authorId?: number;
  projectId?: number;
  /** `pending` unless `done` is asked for. */
  state: 'pending' | 'done';
  type?: 'Issue' | 'MergeRequest';
}

/** A todo and everything its answer shows. */
export interface TodoDetails {
  todo: TodoRow;
  project: Project;
  author: User | undefined;
  target: { type: 'Issue'; details: IssueDetails } | { type: 'MergeRequest'; details: MergeRequestDetails };
  /** The text of the note the todo came from, if it came from one. */
  noteText: string | undefined;
}

type Page = { offset: number; limit: number };

/** A user's todos (GitLab 8.12's `todos.rb`, `TodosFinder` and `TodoService#mark_todo`). */
export class TodosService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly users: UsersService,
  ) {}

  /** The caller's todos, newest first. */
  async list(caller: Caller, filters: TodoFilters, page: Page): Promise<{ todos: TodoDetails[]; total: number }> {
    const query = this.visible(caller, filters);
    const [rows, count] = await Promise.all([
      query.selectAll('todos').orderBy('todos.id', 'desc').offset(page.offset).limit(page.limit).execute(),
      query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { todos: await this.details(rows, caller), total: Number(count.total) };
  }

  /** Marks one of the caller's todos done; `404 Not found` for anyone else's, and for one on what the caller may no longer read. */
  async markDone(caller: Caller, todoId: number): Promise<TodoDetails> {
    const todo = await this.ctx.db
      .updateTable('todos')
      .set({ state: 'done', updated_at: now() })
      .where('todos.id', '=', todoId)
      .where('todos.user_id', '=', caller.id)
      .where(this.targetReadable(caller))
      .returningAll()
      .executeTakeFirst();
    if (!todo) throw recordNotFound();
    const [details] = await this.details([todo], caller);
    if (!details) throw recordNotFound();
    return details;
  }

  /** Marks the caller's todos that the filters find done, and answers how many there were. */
  async markAllDone(caller: Caller, filters: TodoFilters): Promise<number> {
    const ids = this.visible(caller, filters).select('todos.id');
    const result = await this.ctx.db
      .updateTable('todos')
      .set({ state: 'done', updated_at: now() })
      .where('id', 'in', ids)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * The caller marks an issue as a todo of their own; `304` when they already have a pending todo
   * on it. `404 Not found` for an unknown issue, `404 Not Found` for a confidential one they may not see.
   */
  async markIssue(project: Project, standing: ProjectStanding, caller: Caller, issueId: number): Promise<TodoDetails> {
    const issue = await this.ctx.db
      .selectFrom('issues')
      .selectAll()
      .where('id', '=', issueId)
      .where('project_id', '=', project.id)
      .executeTakeFirst();
    if (!issue) throw recordNotFound();
    if (!mayReadIssue(standing, issue)) throw notFound();
    return this.mark(caller, { projectId: project.id, targetType: 'Issue', targetId: issue.id });
  }

  /** The caller marks a merge request as a todo of their own; `304` when they already have a pending todo on it, `404 Not found` for an unknown one. */
  async markMergeRequest(project: Project, caller: Caller, mergeRequestId: number): Promise<TodoDetails> {
    const mergeRequest = await findMergeRequest(this.ctx.db, project, mergeRequestId);
    return this.mark(caller, { projectId: project.id, targetType: 'MergeRequest', targetId: mergeRequest.id });
  }

  /** The caller's pending todos on an issue or a merge request are done (the `/done` slash command). */
  async markTargetDone(caller: Caller, target: TodoTarget): Promise<void> {
    await markPendingDone(this.ctx.db, caller.id, target);
  }

  private async mark(caller: Caller, target: TodoTarget): Promise<TodoDetails> {
    const [todo] = await inTransaction(this.ctx.db, (trx) =>
      createTodos(trx, [caller.id], { ...target, authorId: caller.id, action: TODO_ACTIONS.marked }),
    );
    if (!todo) throw notModified();
    const [details] = await this.details([todo], caller);
    return details;
  }

  /**
   * The caller's todos the filters find, on issues and merge requests they may still read: 8.12's
   * finder kept todos of projects the user sees; a todo on a confidential issue hidden from them
   * now is left out too, and so is one in a project whose merge requests they may no longer read.
   */
  private visible(caller: Caller, filters: TodoFilters) {
    let query = this.ctx.db
      .selectFrom('todos')
      .where('todos.user_id', '=', caller.id)
      .where('todos.state', '=', filters.state)
      .where(this.targetReadable(caller));
    if (filters.action !== undefined) query = query.where('todos.action', '=', filters.action);
    if (filters.authorId !== undefined) query = query.where('todos.author_id', '=', filters.authorId);
    if (filters.projectId !== undefined) query = query.where('todos.project_id', '=', filters.projectId);
    if (filters.type !== undefined) query = query.where('todos.target_type', '=', filters.type);
    return query;
  }

  /** Whether the caller may read a todo's issue or merge request (`policy-reads.ts`). */
  private targetReadable(caller: Caller) {
    const db = this.ctx.db;
    return (eb: ExpressionBuilder<Database, 'todos'>) =>
      eb.or([
        eb.and([
          eb('todos.target_type', '=', 'Issue'),
          eb('todos.project_id', 'in', issueProjectIds(db, caller)),
          // Each todo looks its issue up by id. OFFSET 0 keeps PostgreSQL from making this a join, which it
          // planned as a scan of every issue in the instance (20 ms on 50,000) to count a user's few hundred
          // todos; SQLite takes an OFFSET only after a LIMIT.
          eb.exists(
            eb
              .selectFrom('issues')
              .select('issues.id')
              .whereRef('issues.id', '=', 'todos.target_id')
              .where(confidentialFilter(caller))
              .limit(1)
              .offset(0),
          ),
        ]),
        eb.and([eb('todos.target_type', '=', 'MergeRequest'), eb('todos.project_id', 'in', mergeRequestProjectIds(db, caller))]),
      ]);
  }

  /** A page of todos with their issues or merge requests, projects, authors and notes, in a fixed number of queries. */
  private async details(todos: TodoRow[], caller: Caller): Promise<TodoDetails[]> {
    if (todos.length === 0) return [];
    const db = this.ctx.db;
    const idsOf = (type: string) => [...new Set(todos.filter((todo) => todo.target_type === type).map((todo) => todo.target_id))];
    const issueIds = idsOf('Issue');
    const mergeRequestIds = idsOf('MergeRequest');
    const noteIds = [...new Set(todos.flatMap((todo) => (todo.note_id === null ? [] : [todo.note_id])))];
    const authorIds = [...new Set(todos.flatMap((todo) => (todo.author_id === null ? [] : [todo.author_id])))];
    const [issues, mergeRequests, notes, authors] = await Promise.all([
      issueIds.length ? db.selectFrom('issues').selectAll().where('id', 'in', issueIds).execute() : [],
      mergeRequestIds.length ? db.selectFrom('merge_requests').selectAll().where('id', 'in', mergeRequestIds).execute() : [],
      noteIds.length ? db.selectFrom('notes').select(['id', 'note']).where('id', 'in', noteIds).execute() : [],
      this.users.findMany(authorIds),
    ]);
    const [issueDetails, mergeRequestDetails] = await Promise.all([
      loadIssueDetails(db, this.users, issues, caller.id),
      loadMergeRequestDetails(db, this.users, mergeRequests, caller.id),
    ]);
    const issueTargets = new Map(issueDetails.map((details) => [details.issue.id, { type: 'Issue' as const, details }]));
    const mergeRequestTargets = new Map(
      mergeRequestDetails.map((details) => [details.mergeRequest.id, { type: 'MergeRequest' as const, details }]),
    );
    const noteById = new Map(notes.map((note) => [note.id, note.note]));
    return todos.flatMap((todo) => {
      const target = todo.target_type === 'MergeRequest' ? mergeRequestTargets.get(todo.target_id) : issueTargets.get(todo.target_id);
      if (!target) return [];
      return [
        {
          todo,
          project: target.details.project,
          author: todo.author_id === null ? undefined : authors.get(todo.author_id),
          target,
          noteText: todo.note_id === null ? undefined : noteById.get(todo.note_id),
        },
      ];
    });
  }
}
