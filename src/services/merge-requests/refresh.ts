import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import type { ProjectsService } from '../projects/projects';
import type { UsersService } from '../users/users';
import type { PushJob } from '../../jobs/kinds';
import { inTransaction } from '../../db/transaction';
import { now } from '../../lib/time';
import { commitsBetween } from '../../git/log';
import { isAncestor } from '../../git/merge';
import { ZERO_OID } from '../../git/ref-names';
import { repoPathOf } from '../repository/repositories';
import { insertSystemNote } from '../issuables/system-notes';
import { queueMergeStatusCheck } from './checks';
import { cancelMergeWhenPipelineSucceeds } from './merge-when-pipeline';
import type { MergingService } from './merging';
import { insertVersion, latestVersions, readVersion, type VersionReading } from './versions';
import { OPEN_STATES, type MergeRequestRow, type MergeRequestVersionRow, type Project } from './types';

export interface RefreshDeps {
  ctx: ServiceContext;
  projects: ProjectsService;
  users: UsersService;
  merging: MergingService;
}

/** A source branch that moved: its merge request's next version and the note that tells its new commits. */
interface Reload {
  mergeRequest: MergeRequestRow;
  reading: VersionReading;
  note: string;
}

/**
 * GitLab 8.12's `MergeRequests::RefreshService`, run in the background after each push: the open
 * merge requests whose source is a pushed branch (of this project, fork or not) get a new version,
 * a note listing the added commits, their automatic merge cancelled and their mergeability checked
 * again; those targeting a pushed branch are checked again, and one whose head the push brought
 * into its target branch is merged (`post_merge_manually_merged`).
 */
export async function refreshMergeRequests(deps: RefreshDeps, job: PushJob): Promise<void> {
  const { ctx } = deps;
  const [project, user] = await Promise.all([deps.projects.find(job.projectId), deps.users.findById(job.userId)]);
  if (!project || !user) return;
  const updates = job.updates.filter((update) => update.ref.startsWith('refs/heads/'));
  if (updates.length === 0) return;
  const branches = updates.map((update) => update.ref.slice('refs/heads/'.length));
  const [asSource, asTarget] = await Promise.all([
    ctx.db
      .selectFrom('merge_requests')
      .selectAll()
      .where('source_project_id', '=', project.id)
      .where('source_branch', 'in', branches)
      .where('state', 'in', [...OPEN_STATES])
      .execute(),
    ctx.db
      .selectFrom('merge_requests')
      .selectAll()
      .where('target_project_id', '=', project.id)
      .where('target_branch', 'in', branches)
      .where('state', 'in', [...OPEN_STATES])
      .execute(),
  ]);
  if (asSource.length === 0 && asTarget.length === 0) return;
  const versions = await latestVersions(
    ctx.db,
    [...asSource, ...asTarget].map((row) => row.id),
  );
  const targets = await targetProjects(deps, project, asSource);

  const reloads: Reload[] = [];
  for (const mergeRequest of asSource) {
    const target = targets.get(mergeRequest.target_project_id);
    if (!target) continue;
    const reload = await readReload(ctx, project, target, mergeRequest, versions.get(mergeRequest.id));
    if (reload) reloads.push(reload);
  }
  const manuallyMerged: MergeRequestRow[] = [];
  for (const mergeRequest of asTarget) {
    const update = updates.find((candidate) => candidate.ref === `refs/heads/${mergeRequest.target_branch}`)!;
    const version = versions.get(mergeRequest.id);
    if (update.newId === ZERO_OID || !version?.head_commit_sha || version.commits_count === 0) continue;
    const repoPath = repoPathOf(ctx, project.id);
    const head = version.head_commit_sha;
    const pushedHere =
      (await isAncestor(repoPath, head, update.newId)) && (update.oldId === ZERO_OID || !(await isAncestor(repoPath, head, update.oldId)));
    if (pushedHere) manuallyMerged.push(mergeRequest);
  }

  await inTransaction(ctx.db, async (trx) => {
    for (const { mergeRequest, reading, note } of reloads) {
      await insertVersion(trx, mergeRequest.id, reading);
      await insertSystemNote(trx, { type: 'MergeRequest', id: mergeRequest.id, projectId: mergeRequest.target_project_id }, user.id, note);
      // A new head was never what the pipeline was awaited for (8.12's `reset_merge_when_build_succeeds`).
      if (mergeRequest.merge_when_build_succeeds === 1) await cancelMergeWhenPipelineSucceeds(trx, mergeRequest, user.id);
    }
    const rows = await markMerged(trx, manuallyMerged, user.id);
    for (const row of rows) await deps.merging.afterMerge(trx, project, user, row);
    const mergedIds = new Set(rows.map((row) => row.id));
    const recheck = [...new Set([...asSource.map((row) => row.id), ...asTarget.map((row) => row.id)])].filter((id) => !mergedIds.has(id));
    await queueMergeStatusCheck(ctx, trx, recheck);
  });
}

async function targetProjects(deps: RefreshDeps, project: Project, rows: MergeRequestRow[]): Promise<Map<number, Project>> {
  const ids = [...new Set(rows.map((row) => row.target_project_id))];
  const found = await Promise.all(ids.map((id) => (id === project.id ? project : deps.projects.find(id))));
  return new Map(found.flatMap((target) => (target ? [[target.id, target] as const] : [])));
}

/** The next version of a merge request whose source branch was pushed, or undefined when its head did not move (or a branch is gone). */
async function readReload(
  ctx: ServiceContext,
  source: Project,
  target: Project,
  mergeRequest: MergeRequestRow,
  latest: MergeRequestVersionRow | undefined,
): Promise<Reload | undefined> {
  const ends = { target, source, sourceBranch: mergeRequest.source_branch, targetBranch: mergeRequest.target_branch };
  const reading = await readVersion(ctx, ends).catch(() => undefined);
  if (!reading || reading.shas.head === latest?.head_commit_sha) return undefined;
  const repoPath = repoPathOf(ctx, target.id);
  const added = await commitsBetween(ctx.git, repoPath, latest?.head_commit_sha ?? reading.shas.base, reading.shas.head);
  return { mergeRequest, reading, note: addedCommitsNote(added.reverse()) };
}

/** 8.12's `SystemNoteService.add_commits`, newest first. */
function addedCommitsNote(commits: Array<{ id: string; title: string }>): string {
  const count = `${commits.length} commit${commits.length === 1 ? '' : 's'}`;
  return `Added ${count}:\n\n${commits.map((commit) => `* ${commit.id.slice(0, 8)} - ${commit.title}`).join('\n')}`;
}

/** Marks merged, by the pusher, those still open (a merge through the API may have got there first). */
async function markMerged(trx: Db, rows: MergeRequestRow[], mergedById: number): Promise<MergeRequestRow[]> {
  if (rows.length === 0) return [];
  return trx
    .updateTable('merge_requests')
    .set({ state: 'merged', merged_by_id: mergedById, merge_when_build_succeeds: 0, locked_from: null, locked_at: null, updated_at: now() })
    .where(
      'id',
      'in',
      rows.map((row) => row.id),
    )
    .where('state', 'in', [...OPEN_STATES])
    .returningAll()
    .execute();
}
