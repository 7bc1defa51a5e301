import type { ServiceContext } from '../context';
import { preparedQuery } from '../../db/prepared';

/** What the top bar of every signed-in page counts. */
export interface WorkCounts {
  assignedIssues: number;
  assignedMergeRequests: number;
  pendingTodos: number;
}

const OPEN = ['opened', 'reopened'];

/**
 * A user's open assigned issues and merge requests and pending todos (GitLab's
 * `assigned_open_issues_count`, `assigned_open_merge_requests_count`, `todos_pending_count`), as
 * GitLab counts them: by assignee and state, without reading each project's rules, so one query of
 * three indexed counts (`issues_assignee`, `merge_requests_assignee`, `todos_user_state`),
 * compiled once, serves every signed-in page. The dashboard lists they link to apply the rules.
 */
export class WorkCountsService {
  private readonly query;

  constructor(ctx: ServiceContext) {
    const db = ctx.db;
    this.query = preparedQuery(db, (userId: number) =>
      db.selectNoFrom((eb) => [
        eb
          .selectFrom('issues')
          .select(eb.fn.countAll<number | string>().as('n'))
          .where('assignee_id', '=', userId)
          .where('state', 'in', OPEN)
          .as('issues'),
        eb
          .selectFrom('merge_requests')
          .select(eb.fn.countAll<number | string>().as('n'))
          .where('assignee_id', '=', userId)
          .where('state', 'in', OPEN)
          .as('merge_requests'),
        eb
          .selectFrom('todos')
          .select(eb.fn.countAll<number | string>().as('n'))
          .where('user_id', '=', userId)
          .where('state', '=', 'pending')
          .as('todos'),
      ]),
    );
  }

  async of(userId: number): Promise<WorkCounts> {
    const [row] = await this.query(userId);
    return {
      assignedIssues: Number(row?.issues ?? 0),
      assignedMergeRequests: Number(row?.merge_requests ?? 0),
      pendingTodos: Number(row?.todos ?? 0),
    };
  }
}
