import type { Db } from '../../db/index';

/**
 * Removes what points at a project's issues without a foreign key (label links, award emoji of
 * the issues and of their notes, subscriptions, todos and notes name their target by type and id), in the project's deletion.
 */
export async function deleteIssueTraces(trx: Db, projectId: number): Promise<void> {
  const issueIds = trx.selectFrom('issues').select('id').where('project_id', '=', projectId);
  await trx.deleteFrom('label_links').where('target_type', '=', 'Issue').where('target_id', 'in', issueIds).execute();
  const noteIds = trx.selectFrom('notes').select('id').where('noteable_type', '=', 'Issue').where('noteable_id', 'in', issueIds);
  await trx.deleteFrom('award_emoji').where('awardable_type', '=', 'Note').where('awardable_id', 'in', noteIds).execute();
  await trx.deleteFrom('award_emoji').where('awardable_type', '=', 'Issue').where('awardable_id', 'in', issueIds).execute();
  await trx.deleteFrom('subscriptions').where('subscribable_type', '=', 'Issue').where('subscribable_id', 'in', issueIds).execute();
  await trx.deleteFrom('notes').where('noteable_type', '=', 'Issue').where('noteable_id', 'in', issueIds).execute();
}
