import type { Db } from '../../db/index';
import type { Project } from '../projects/types';
import type { UsersService } from '../users/users';
import { attachNamespaces } from '../projects/lookup';
import { issueSubscriptions } from '../subscriptions/subscribed';
import type { IssueDetails, IssueRow } from './types';

/**
 * What the answers show of a page of issues, in a fixed number of queries whatever its size:
 * projects, labels, milestones, users, the caller's subscriptions (`issueSubscriptions`), note and award counts.
 * `knownProjects` spares loading projects the caller already has.
 */
export async function loadIssueDetails(db: Db, users: UsersService, rows: IssueRow[], callerId: number, knownProjects: Project[] = []): Promise<IssueDetails[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const projectById = new Map(knownProjects.map((project) => [project.id, project]));
  const missingProjects = [...new Set(rows.map((row) => row.project_id))].filter((id) => !projectById.has(id));
  const milestoneIds = [...new Set(rows.flatMap((row) => (row.milestone_id === null ? [] : [row.milestone_id])))];
  const userIds = [...new Set(rows.flatMap((row) => [row.author_id, row.assignee_id].filter((id): id is number => id !== null)))];
  const [projectRows, labels, milestones, people, subscriptions, notes, awards] = await Promise.all([
    missingProjects.length ? db.selectFrom('projects').selectAll().where('id', 'in', missingProjects).execute() : [],
    db
      .selectFrom('label_links')
      .innerJoin('labels', 'labels.id', 'label_links.label_id')
      .select(['label_links.target_id', 'labels.title'])
      .where('label_links.target_type', '=', 'Issue')
      .where('label_links.target_id', 'in', ids)
      .execute(),
    milestoneIds.length ? db.selectFrom('milestones').selectAll().where('id', 'in', milestoneIds).execute() : [],
    users.findMany(userIds),
    issueSubscriptions(db, callerId, rows),
    db
      .selectFrom('notes')
      .select(['noteable_id', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('noteable_type', '=', 'Issue')
      .where('noteable_id', 'in', ids)
      .where('system', '=', 0)
      .groupBy('noteable_id')
      .execute(),
    db
      .selectFrom('award_emoji')
      .select(['awardable_id', 'name', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('awardable_type', '=', 'Issue')
      .where('awardable_id', 'in', ids)
      .where('name', 'in', ['thumbsup', 'thumbsdown'])
      .groupBy(['awardable_id', 'name'])
      .execute(),
  ]);
  for (const project of await attachNamespaces(db, projectRows)) projectById.set(project.id, project);
  const labelsById = new Map<number, string[]>();
  for (const label of labels) labelsById.set(label.target_id, [...(labelsById.get(label.target_id) ?? []), label.title]);
  const milestoneById = new Map(milestones.map((milestone) => [milestone.id, milestone]));
  const notesById = new Map(notes.map((note) => [note.noteable_id, Number(note.count)]));
  const awardCount = (id: number, name: string) => Number(awards.find((award) => award.awardable_id === id && award.name === name)?.count ?? 0);
  return rows.map((issue) => ({
    issue,
    project: projectById.get(issue.project_id)!,
    labels: (labelsById.get(issue.id) ?? []).sort(),
    milestone: issue.milestone_id === null ? undefined : milestoneById.get(issue.milestone_id),
    author: issue.author_id === null ? undefined : people.get(issue.author_id),
    assignee: issue.assignee_id === null ? undefined : people.get(issue.assignee_id),
    subscribed: subscriptions.get(issue.id) ?? false,
    userNotesCount: notesById.get(issue.id) ?? 0,
    upvotes: awardCount(issue.id, 'thumbsup'),
    downvotes: awardCount(issue.id, 'thumbsdown'),
  }));
}
