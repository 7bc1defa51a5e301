import type { Db } from '../../db/index';
import { chunksOf } from '../../db/chunks';
import type { IssueRow, MergeRequestRow } from './types';
import { isWorkInProgress, wiplessTitle } from './work-in-progress';
import { now } from '../../lib/time';
import { MAX_RECORD_ID } from '../../lib/record-id';

/** What a system note needs of a project: its id, and its path for the notes that name it (any `Project` fits). */
type Project = { id: number; path: string; namespace: { path: string } };

/**
 * System notes as GitLab 8.12's `SystemNoteService` wrote them: the record of a change on the
 * issue's page, `system: true`, by the user who made the change. They are written in the change's
 * transaction and, as in 8.12 (which saved them with a bare `Note.create`), record no event and
 * fire no Note Hook.
 */

/** What an issue was before a change, as its system notes compare it. */
export interface IssueSnapshot {
  issue: IssueRow;
  labelIds: number[];
}

/** What a system note hangs on. */
export type SystemNoteable = { type: 'Issue' | 'MergeRequest' | 'Snippet'; id: number; projectId: number };

export async function insertSystemNote(trx: Db, noteable: SystemNoteable, authorId: number, body: string): Promise<void> {
  const time = now();
  await trx
    .insertInto('notes')
    .values({
      project_id: noteable.projectId,
      noteable_type: noteable.type,
      noteable_id: noteable.id,
      commit_id: null,
      author_id: authorId,
      note: body,
      path: null,
      line: null,
      line_type: null,
      system: 1,
      attachment: null,
      created_at: time,
      updated_at: time,
    })
    .execute();
}

/** What a merge request was before a change, as its system notes compare it. */
export interface MergeRequestSnapshot {
  mergeRequest: MergeRequestRow;
  labelIds: number[];
}

const onIssue = (issue: IssueRow): SystemNoteable => ({ type: 'Issue', id: issue.id, projectId: issue.project_id });
const onMergeRequest = (mergeRequest: MergeRequestRow): SystemNoteable => ({
  type: 'MergeRequest',
  id: mergeRequest.id,
  projectId: mergeRequest.target_project_id,
});

async function labelIdsOf(trx: Db, noteable: SystemNoteable): Promise<number[]> {
  const rows = await trx
    .selectFrom('label_links')
    .select('label_id')
    .where('target_type', '=', noteable.type)
    .where('target_id', '=', noteable.id)
    .orderBy('label_id')
    .execute();
  return rows.map((row) => row.label_id);
}

/** Read before a change, inside its transaction, to compare with after. */
export async function issueSnapshot(trx: Db, issue: IssueRow): Promise<IssueSnapshot> {
  return { issue, labelIds: await labelIdsOf(trx, onIssue(issue)) };
}

export async function mergeRequestSnapshot(trx: Db, mergeRequest: MergeRequestRow): Promise<MergeRequestSnapshot> {
  return { mergeRequest, labelIds: await labelIdsOf(trx, onMergeRequest(mergeRequest)) };
}

/** The fields issues and merge requests share, which their system notes record the changes of. */
type Issuable = Pick<IssueRow, 'state' | 'title' | 'milestone_id' | 'assignee_id'>;

/** The notes of a changed title: 8.12's `create_title_change_note`. */
type TitleNotes = (oldTitle: string, newTitle: string) => string[];

const issueTitleNotes: TitleNotes = (oldTitle, newTitle) => [titleChangeBody(oldTitle, newTitle)];

/**
 * A merge request's (8.12's `MergeRequests::UpdateService#create_title_change_note`): marking or
 * unmarking it WIP is a note of its own, and the title note is written only when the title without
 * its WIP marks changed too.
 */
const mergeRequestTitleNotes: TitleNotes = (oldTitle, newTitle) => {
  const bodies: string[] = [];
  const wasWip = isWorkInProgress(oldTitle);
  const isWip = isWorkInProgress(newTitle);
  if (wasWip && !isWip) bodies.push('Unmarked this merge request as a Work In Progress');
  if (!wasWip && isWip) bodies.push('Marked this merge request as a **Work In Progress**');
  if (wiplessTitle(oldTitle) !== wiplessTitle(newTitle)) bodies.push(titleChangeBody(oldTitle, newTitle));
  return bodies;
};

/** 8.12's `IssuableBaseService#handle_common_system_notes` with the state: state, title, labels, milestone, assignee, in that order. */
async function recordCommonChangeNotes(
  trx: Db,
  on: SystemNoteable,
  actorId: number,
  old: Issuable,
  oldLabelIds: number[],
  after: Issuable,
  titleNotes: TitleNotes,
): Promise<void> {
  const note = (body: string) => insertSystemNote(trx, on, actorId, body);
  if (after.state !== old.state) await note(`Status changed to ${after.state}`);
  if (after.title !== old.title) for (const body of titleNotes(old.title, after.title)) await note(body);
  const labelIds = await labelIdsOf(trx, on);
  const added = labelIds.filter((id) => !oldLabelIds.includes(id));
  const removed = oldLabelIds.filter((id) => !labelIds.includes(id));
  if (added.length || removed.length) await note(labelChangeBody(added, removed));
  if (after.milestone_id !== old.milestone_id) await note(await milestoneChangeBody(trx, after.milestone_id));
  if (after.assignee_id !== old.assignee_id) await note(await assigneeChangeBody(trx, after.assignee_id));
}

/**
 * The notes of a merge request's update, as 8.12's `MergeRequests::UpdateService` wrote them: those
 * issues have, then the target branch's (8.12's `change_branch`: "Target branch changed from `a` to `b`").
 */
export async function recordMergeRequestChangeNotes(
  trx: Db,
  actorId: number,
  before: MergeRequestSnapshot,
  after: MergeRequestRow,
): Promise<void> {
  const old = before.mergeRequest;
  await recordCommonChangeNotes(trx, onMergeRequest(after), actorId, old, before.labelIds, after, mergeRequestTitleNotes);
  if (after.target_branch !== old.target_branch) {
    await insertSystemNote(
      trx,
      onMergeRequest(after),
      actorId,
      `Target branch changed from \`${old.target_branch}\` to \`${after.target_branch}\``,
    );
  }
}

/**
 * The notes of an update, in the order 8.12's `Issues::UpdateService` wrote them: the state, the
 * title, the labels, the milestone, the assignee, the confidentiality; then the issues newly
 * mentioned by the title or description get their cross-reference.
 */
export async function recordIssueChangeNotes(
  trx: Db,
  project: Project,
  actorId: number,
  before: IssueSnapshot,
  after: IssueRow,
): Promise<void> {
  const old = before.issue;
  const note = (body: string) => insertSystemNote(trx, onIssue(after), actorId, body);
  await recordCommonChangeNotes(trx, onIssue(after), actorId, old, before.labelIds, after, issueTitleNotes);
  if (after.confidential !== old.confidential)
    await note(after.confidential === 1 ? 'Made the issue confidential' : 'Made the issue visible');
  if (after.title !== old.title || after.description !== old.description) {
    await recordCrossReferences(trx, project, actorId, after, `${after.title}\n${after.description ?? ''}`);
  }
}

/** A new issue writes no note of its own in 8.12, but the issues it mentions get their cross-reference. */
export async function recordIssueCreationNotes(trx: Db, project: Project, actorId: number, issue: IssueRow): Promise<void> {
  await recordCrossReferences(trx, project, actorId, issue, `${issue.title}\n${issue.description ?? ''}`);
}

/**
 * 8.12's `Issues::MoveService`: the original's notes copied onto the copy (authors and times kept;
 * 8.12 also rewrote their references to point back at the old project, which Forge does not), then
 * `Moved from <path>#<iid>` on the copy and `Moved to <path>#<iid>` on the original (no status note).
 */
export async function recordIssueMoveNotes(
  trx: Db,
  actorId: number,
  original: IssueRow,
  from: Project,
  copy: IssueRow,
  to: Project,
): Promise<void> {
  const notes = await trx
    .selectFrom('notes')
    .selectAll()
    .where('noteable_type', '=', 'Issue')
    .where('noteable_id', '=', original.id)
    .orderBy('id')
    .execute();
  for (const chunk of chunksOf(notes.map(({ id: _id, ...note }) => ({ ...note, project_id: to.id, noteable_id: copy.id })))) {
    await trx.insertInto('notes').values(chunk).execute();
  }
  await insertSystemNote(trx, onIssue(copy), actorId, `Moved from ${from.namespace.path}/${from.path}#${original.iid}`);
  await insertSystemNote(trx, onIssue(original), actorId, `Moved to ${to.namespace.path}/${to.path}#${copy.iid}`);
}

// GitLab's issue reference in the same project: `#123` not preceded by a word character or `&` (an HTML entity).
const ISSUE_REFERENCE = /(?<![\w&])#(\d+)\b/g;

/** The prefix of 8.12's cross-reference notes; a note starting with it is a cross-reference. */
export const CROSS_REFERENCE_PREFIX = 'mentioned in ';

/** The issue a cross-reference note on an issue names (`mentioned in issue #<iid>`), undefined for other notes. */
export function crossReferencedIid(body: string): number | undefined {
  const match = /^mentioned in issue #(\d+)$/.exec(body);
  return match ? Number(match[1]) : undefined;
}

/**
 * 8.12's `Mentionable#create_cross_references!` for issues of the same project: every other issue
 * `#<iid>` the text mentions gets `mentioned in issue #<iid of the mentioner>`, once (an existing
 * one is not repeated). Mentions of other projects' issues, of merge requests and of commits, and
 * references inside code blocks, are not looked for.
 */
export async function recordCrossReferences(trx: Db, project: Project, actorId: number, mentioner: IssueRow, text: string): Promise<void> {
  const iids = [...new Set([...text.matchAll(ISSUE_REFERENCE)].map((match) => Number(match[1])))].filter(
    (iid) => iid !== mentioner.iid && iid <= MAX_RECORD_ID,
  );
  if (iids.length === 0) return;
  const mentioned = await trx
    .selectFrom('issues')
    .selectAll()
    .where('project_id', '=', project.id)
    .where('iid', 'in', iids)
    .orderBy('iid')
    .execute();
  const body = `${CROSS_REFERENCE_PREFIX}issue #${mentioner.iid}`;
  if (mentioned.length === 0) return;
  // An issue already told of this mention is not told again: one look for all of them.
  const told = await trx
    .selectFrom('notes')
    .select('noteable_id')
    .where('noteable_type', '=', 'Issue')
    .where(
      'noteable_id',
      'in',
      mentioned.map((issue) => issue.id),
    )
    .where('system', '=', 1)
    .where('note', '=', body)
    .execute();
  const toldIds = new Set(told.map((note) => note.noteable_id));
  for (const issue of mentioned) {
    if (!toldIds.has(issue.id)) await insertSystemNote(trx, onIssue(issue), actorId, body);
  }
}

/** `Added ~1 ~2 and removed ~3 labels` (labels by id, `label` for one in all). */
export function labelChangeBody(added: number[], removed: number[]): string {
  const references = (ids: number[]) => ids.map((id) => `~${id}`).join(' ');
  const parts = [];
  if (added.length) parts.push(`added ${references(added)}`);
  if (removed.length) parts.push(`removed ${references(removed)}`);
  const body = `${parts.join(' and ')} ${added.length + removed.length === 1 ? 'label' : 'labels'}`;
  return body[0].toUpperCase() + body.slice(1);
}

/**
 * 8.12's title note: `Changed title: **old** → **new**`, the part that differs marked `{-…-}` in the
 * old title and `{+…+}` in the new one (`Gitlab::Diff::InlineDiff`: the longest common prefix and
 * suffix, by character, stay unmarked).
 */
export function titleChangeBody(oldTitle: string, newTitle: string): string {
  const oldChars = [...oldTitle];
  const newChars = [...newTitle];
  let prefix = 0;
  while (prefix < oldChars.length && prefix < newChars.length && oldChars[prefix] === newChars[prefix]) prefix += 1;
  let suffix = 0;
  while (
    suffix < oldChars.length - prefix &&
    suffix < newChars.length - prefix &&
    oldChars[oldChars.length - 1 - suffix] === newChars[newChars.length - 1 - suffix]
  ) {
    suffix += 1;
  }
  const mark = (chars: string[], sign: string) => {
    const end = chars.length - suffix;
    if (prefix >= end) return chars.join('');
    return `${chars.slice(0, prefix).join('')}{${sign}${chars.slice(prefix, end).join('')}${sign}}${chars.slice(end).join('')}`;
  };
  return `Changed title: **${mark(oldChars, '-')}** → **${mark(newChars, '+')}**`;
}

async function milestoneChangeBody(trx: Db, milestoneId: number | null): Promise<string> {
  const milestone =
    milestoneId === null ? undefined : await trx.selectFrom('milestones').select('iid').where('id', '=', milestoneId).executeTakeFirst();
  return milestone ? `Milestone changed to %${milestone.iid}` : 'Milestone removed';
}

async function assigneeChangeBody(trx: Db, assigneeId: number | null): Promise<string> {
  const assignee =
    assigneeId === null ? undefined : await trx.selectFrom('users').select('username').where('id', '=', assigneeId).executeTakeFirst();
  return assignee ? `Reassigned to @${assignee.username}` : 'Assignee removed';
}
