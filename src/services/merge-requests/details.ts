import type { Db } from '../../db/index';
import type { Project } from '../projects/types';
import type { UsersService } from '../users/users';
import { attachNamespaces } from '../projects/queries';
import { participantSubscriptions } from '../issuables/subscribed';
import { userNoteCounts } from '../issuables/note-counts';
import { voteCounts } from '../award-emoji/votes';
import { labelTitlesOf } from '../labels/label-links';
import { latestVersions } from './versions';
import type { MergeRequestDetails, MergeRequestRow } from './types';

/**
 * What the answers show of a page of merge requests, in a fixed number of queries whatever its
 * size: target projects, labels, milestones, users, the caller's subscriptions, note and award
 * counts, the latest versions (for `sha`). `knownProjects` spares loading projects the caller already has.
 */
export async function loadMergeRequestDetails(
  db: Db,
  users: UsersService,
  rows: MergeRequestRow[],
  callerId: number | null,
  knownProjects: Project[] = [],
): Promise<MergeRequestDetails[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const projectById = new Map(knownProjects.map((project) => [project.id, project]));
  const missingProjects = [...new Set(rows.map((row) => row.target_project_id))].filter((id) => !projectById.has(id));
  const milestoneIds = [...new Set(rows.flatMap((row) => (row.milestone_id === null ? [] : [row.milestone_id])))];
  const userIds = [
    ...new Set(
      rows.flatMap((row) => [row.author_id, row.assignee_id, row.closed_by_id, row.merged_by_id].filter((id): id is number => id !== null)),
    ),
  ];
  const [projectRows, labelsById, milestones, people, subscriptions, notesById, votes, versions] = await Promise.all([
    missingProjects.length ? db.selectFrom('projects').selectAll().where('id', 'in', missingProjects).execute() : [],
    labelTitlesOf(db, 'MergeRequest', ids),
    milestoneIds.length ? db.selectFrom('milestones').selectAll().where('id', 'in', milestoneIds).execute() : [],
    users.findMany(userIds),
    callerId === null ? new Map<number, boolean>() : participantSubscriptions(db, callerId, 'MergeRequest', rows),
    userNoteCounts(db, 'MergeRequest', ids),
    voteCounts(db, 'MergeRequest', ids),
    latestVersions(db, ids),
  ]);
  for (const project of await attachNamespaces(db, projectRows)) projectById.set(project.id, project);
  const milestoneById = new Map(milestones.map((milestone) => [milestone.id, milestone]));
  return rows.map((mergeRequest) => ({
    mergeRequest,
    project: projectById.get(mergeRequest.target_project_id)!,
    labels: labelsById.get(mergeRequest.id) ?? [],
    milestone: mergeRequest.milestone_id === null ? undefined : milestoneById.get(mergeRequest.milestone_id),
    author: mergeRequest.author_id === null ? undefined : people.get(mergeRequest.author_id),
    assignee: mergeRequest.assignee_id === null ? undefined : people.get(mergeRequest.assignee_id),
    closedBy: mergeRequest.closed_by_id === null ? undefined : people.get(mergeRequest.closed_by_id),
    mergedBy: mergeRequest.merged_by_id === null ? undefined : people.get(mergeRequest.merged_by_id),
    subscribed: subscriptions.get(mergeRequest.id) ?? false,
    userNotesCount: notesById.get(mergeRequest.id) ?? 0,
    ...votes(mergeRequest.id),
    sha: versions.get(mergeRequest.id)?.head_commit_sha ?? null,
  }));
}
