import type { Db } from '../../db/index';
import { preparedPerHandle } from '../../db/prepared';
import type { ServiceContext } from '../context';
import { refValues } from '../../git/refs';
import { mergeBase } from '../../git/compare';
import { keepAround } from '../../git/keep-around';
import { countChangedFiles, countCommitsBetween } from '../../git/counts';
import { validationFailed } from '../../errors';
import { now } from '../../lib/time';
import { repoPathOf } from '../repository/repositories';
import type { MergeRequestEnds, MergeRequestVersionRow, VersionShas } from './types';

/** A version read from git, ready to be saved in the transaction of the change that made it. */
export interface VersionReading {
  shas: VersionShas;
  commitsCount: number;
  changedFiles: number;
}

/**
 * Reads what a merge request's next version is (git is read here, before any transaction): the
 * heads of both branches, their merge base, and the counts the version shows. The source head is
 * kept in the target repository (fetched there from a fork), so every later read of the merge
 * request, and its merge, needs only the target repository. A missing branch or unrelated
 * histories are the caller's bad request (8.12 saved such merge requests and showed them empty).
 */
export async function readVersion(ctx: ServiceContext, ends: MergeRequestEnds): Promise<VersionReading> {
  const targetRepo = repoPathOf(ctx, ends.target.id);
  const sourceRepo = repoPathOf(ctx, ends.source.id);
  const [sourceRefs, targetRefs] = await Promise.all([
    refValues(sourceRepo, [`refs/heads/${ends.sourceBranch}`]),
    refValues(targetRepo, [`refs/heads/${ends.targetBranch}`]),
  ]);
  const head = sourceRefs.get(`refs/heads/${ends.sourceBranch}`);
  const start = targetRefs.get(`refs/heads/${ends.targetBranch}`);
  if (head === undefined) throw validationFailed({ source_branch: ['does not exist'] });
  if (start === undefined) throw validationFailed({ target_branch: ['does not exist'] });
  await keepAround(targetRepo, sourceRepo, head);
  const base = await mergeBase(targetRepo, head, start);
  if (base === undefined) throw validationFailed({ source_branch: ['has no history in common with the target branch'] });
  const [commitsCount, changedFiles] = await Promise.all([
    countCommitsBetween(targetRepo, base, head),
    countChangedFiles(targetRepo, base, head),
  ]);
  return { shas: { base, head, start }, commitsCount, changedFiles };
}

/** Saves a version read by `readVersion`, in the transaction of the change that made it. */
export async function insertVersion(trx: Db, mergeRequestId: number, reading: VersionReading): Promise<MergeRequestVersionRow> {
  const time = now();
  return trx
    .insertInto('merge_request_diffs')
    .values({
      merge_request_id: mergeRequestId,
      state: reading.commitsCount === 0 ? 'empty' : 'collected',
      base_commit_sha: reading.shas.base,
      head_commit_sha: reading.shas.head,
      start_commit_sha: reading.shas.start,
      real_size: String(reading.changedFiles),
      commits_count: reading.commitsCount,
      created_at: time,
      updated_at: time,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Compiled once per number of merge requests (a page's): every read of a merge request asks it. */
const newestVersions = preparedPerHandle((db: Db, mergeRequestIds: number[]) =>
  db
    .selectFrom('merge_request_diffs')
    .selectAll()
    .where(
      'id',
      'in',
      db
        .selectFrom('merge_request_diffs')
        .select((eb) => eb.fn.max('id').as('id'))
        .where('merge_request_id', 'in', mergeRequestIds)
        .groupBy('merge_request_id'),
    ),
);

/** The newest version of each merge request, by merge request id (one query for a page). */
export async function latestVersions(db: Db, mergeRequestIds: number[]): Promise<Map<number, MergeRequestVersionRow>> {
  if (mergeRequestIds.length === 0) return new Map();
  const rows = await newestVersions(db, mergeRequestIds);
  return new Map(rows.map((row) => [row.merge_request_id, row]));
}
