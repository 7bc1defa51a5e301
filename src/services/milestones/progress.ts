import type { Db } from '../../db/index';
import type { ProjectStanding } from '../policy';
import { readableIssuesIn } from '../policy-reads';

/** How far a milestone is: its issues the caller may read, and how many of them are closed. */
export interface MilestoneProgress {
  closed: number;
  total: number;
}

/**
 * The progress of some milestones of one project, in one query. Only issues the caller may read
 * are counted (the API's read rule), so a confidential issue is not told by a count either.
 */
export async function milestoneProgress(
  db: Db,
  projectId: number,
  standing: ProjectStanding,
  milestoneIds: number[],
): Promise<Map<number, MilestoneProgress>> {
  const progress = new Map<number, MilestoneProgress>(milestoneIds.map((id) => [id, { closed: 0, total: 0 }]));
  if (milestoneIds.length === 0) return progress;
  const rows = await db
    .selectFrom('issues')
    .where('issues.project_id', '=', projectId)
    .where('issues.milestone_id', 'in', milestoneIds)
    .where(readableIssuesIn(standing))
    .select((eb) => [
      'issues.milestone_id',
      eb.fn.countAll<number | string>().as('total'),
      eb.fn.sum<number | string>(eb.case().when('issues.state', '=', 'closed').then(1).else(0).end()).as('closed'),
    ])
    .groupBy('issues.milestone_id')
    .execute();
  for (const row of rows) {
    if (row.milestone_id !== null) progress.set(row.milestone_id, { closed: Number(row.closed ?? 0), total: Number(row.total) });
  }
  return progress;
}
