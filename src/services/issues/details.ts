import type { Db } from '../../db/index';
import { preparedPerHandle } from '../../db/prepared';
import type { Project } from '../projects/types';
import type { UsersService } from '../users/users';
import { attachNamespaces } from '../projects/queries';
import { participantSubscriptions } from '../issuables/subscribed';
import { userNoteCounts } from '../issuables/note-counts';
import { voteCounts } from '../award-emoji/votes';
import { labelTitlesOf } from '../labels/label-links';
import type { IssueDetails, IssueRow } from './types';

const milestonesByIds = preparedPerHandle((db: Db, ids: number[]) => db.selectFrom('milestones').selectAll().where('id', 'in', ids));

/**
 * What the answers show of a page of issues, in a fixed number of queries whatever its size:
 * projects, labels, milestones, users, the caller's subscriptions (`participantSubscriptions`), note and award counts.
 * `knownProjects` spares loading projects the caller already has.
 */
export async function loadIssueDetails(
  db: Db,
  users: UsersService,
  rows: IssueRow[],
  callerId: number,
  knownProjects: Project[] = [],
): Promise<IssueDetails[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const projectById = new Map(knownProjects.map((project) => [project.id, project]));
  const missingProjects = [...new Set(rows.map((row) => row.project_id))].filter((id) => !projectById.has(id));
  const milestoneIds = [...new Set(rows.flatMap((row) => (row.milestone_id === null ? [] : [row.milestone_id])))];
  const userIds = [
    ...new Set(rows.flatMap((row) => [row.author_id, row.assignee_id, row.closed_by_id].filter((id): id is number => id !== null))),
  ];
  const [projectRows, labelsById, milestones, people, subscriptions, notesById, votes] = await Promise.all([
    missingProjects.length ? db.selectFrom('projects').selectAll().where('id', 'in', missingProjects).execute() : [],
    labelTitlesOf(db, 'Issue', ids),
    milestoneIds.length ? milestonesByIds(db, milestoneIds) : [],
    users.findMany(userIds),
    participantSubscriptions(db, callerId, 'Issue', rows),
    userNoteCounts(db, 'Issue', ids),
    voteCounts(db, 'Issue', ids),
  ]);
  for (const project of await attachNamespaces(db, projectRows)) projectById.set(project.id, project);
  const milestoneById = new Map(milestones.map((milestone) => [milestone.id, milestone]));
  return rows.map((issue) => ({
    issue,
    project: projectById.get(issue.project_id)!,
    labels: labelsById.get(issue.id) ?? [],
    milestone: issue.milestone_id === null ? undefined : milestoneById.get(issue.milestone_id),
    author: issue.author_id === null ? undefined : people.get(issue.author_id),
    assignee: issue.assignee_id === null ? undefined : people.get(issue.assignee_id),
    closedBy: issue.closed_by_id === null ? undefined : people.get(issue.closed_by_id),
    subscribed: subscriptions.get(issue.id) ?? false,
    userNotesCount: notesById.get(issue.id) ?? 0,
    ...votes(issue.id),
  }));
}
