import type { Db } from '../../db/index';
import { notify } from '../notify';
import { preparedPerHandle, preparedShapes } from '../../db/prepared';
import { pageLimit } from '../../db/page-limit';
import type { ServiceContext } from '../context';
import type { EventsService } from '../events/events';
import type { Project } from '../projects/types';
import type { User } from '../users/users';
import type { NoteRow } from './types';
import { can, mayDateNote, type ProjectStanding } from '../policy';
import { failedTo, forbidden, notFound, notGiven, recordNotFound } from '../../errors';
import { inTransaction } from '../../db/transaction';
import { now } from '../../lib/time';
import { emitProjectEvents } from '../hooks/project-events';
import { emojiOnlyName, mayAward, recordAward } from '../award-emoji/awards';
import { mayReadIssue } from '../policy-reads';
import { findNoteable, noteableAuthorId, type Noteable, type NoteableKind, type NoteableRef } from './noteables';
import { buildNoteableNoteData } from './noteable-note-data';
import { crossReferencedIid, recordCrossReferences } from '../issuables/system-notes';
import { createNoteTodos } from '../todos/issue-todos';
import { mergeRequestNoteTodos } from '../todos/merge-request-todos';
import { mergeRequestHookParts } from '../merge-requests/announce';

type Page = { offset: number; limit: number };
type AwardRow = NonNullable<Awaited<ReturnType<typeof recordAward>>>;

/** What creating a note made: the note, or an award when the body was one emoji only (8.12). */
export type Created = { note: NoteRow; award?: undefined } | { award: AwardRow; note?: undefined };

export interface NewNote {
  body: string;
  /** Kept for administrators and the owner of a personal project, on issues (8.12). */
  createdAt?: string;
  /**
   * Save a body of one emoji as a note, not an award: the legacy merge request `…/comments` route,
   * where 8.12 made the award and then answered it as a comment it was not (a plain bug).
   */
  plain?: boolean;
  /**
   * A note of a merge request's discussion: a comment on a line of its diff (`DiffNote`, with its
   * position as JSON) or a reply in a thread (`DiscussionNote`), the discussion it opens or answers,
   * and, for a reply to a resolved thread, that resolution (resolving is the whole thread's).
   */
  diff?: {
    type?: 'DiffNote' | 'DiscussionNote';
    position: string | null;
    discussionId: string;
    resolved?: { at: string; byId: number | null };
  };
}

/**
 * Notes on a project's issues, merge requests and snippets (GitLab 8.12's `notes.rb` with `Notes::*Service`).
 * The project guard has checked that the caller reads the noteable's kind; this service finds the
 * noteable in the project and checks that the caller sees that one.
 */
// Every notes page asks: built and compiled once (per page size, see `pageLimit`).
type NotePageValues = { type: Noteable['type']; id: number; offset: number };
const notePage = preparedShapes(String, (db: Db, limit: number, values: NotePageValues) =>
  db
    .selectFrom('notes')
    .selectAll()
    .where('noteable_type', '=', values.type)
    .where('noteable_id', '=', values.id)
    .orderBy('id')
    .limit(pageLimit(limit))
    .offset(values.offset),
);
const noteCount = preparedPerHandle((db: Db, type: Noteable['type'], id: number) =>
  db
    .selectFrom('notes')
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .where('noteable_type', '=', type)
    .where('noteable_id', '=', id),
);

export class NoteableNotesService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly events: EventsService,
  ) {}

  /**
   * Oldest first. As in 8.12, cross-references from issues the caller cannot see are dropped from
   * the page after it is cut, so a page may be short.
   */
  async list(
    project: Project,
    standing: ProjectStanding,
    kind: NoteableKind,
    noteable: NoteableRef,
    page: Page,
  ): Promise<{ notes: NoteRow[]; total: number }> {
    const found = await findNoteable(this.ctx.db, project, standing, kind, noteable);
    // v4 (by iid) answers a confidential issue as a missing one, as its other issue routes do (`idByIid`).
    if (!found.readable) throw typeof noteable === 'number' ? notFound('Notes') : recordNotFound();
    const db = this.ctx.db;
    const [rows, [count]] = await Promise.all([
      notePage(db, page.limit, { type: found.type, id: found.id, offset: page.offset }),
      noteCount(db, found.type, found.id),
    ]);
    const hidden = await this.hiddenCrossReferences(project, standing, rows);
    return { notes: rows.filter((note) => !hidden.has(note.id)), total: Number(count.total) };
  }

  async find(project: Project, standing: ProjectStanding, kind: NoteableKind, noteableId: number, noteId: number): Promise<NoteRow> {
    return (await this.locate(project, standing, kind, noteableId, noteId)).note;
  }

  /** The note and its noteable: `404 Not found` for an unknown one, `404 Note Not Found` for one the caller may not read. */
  private async locate(project: Project, standing: ProjectStanding, kind: NoteableKind, noteableId: number, noteId: number) {
    const noteable = await findNoteable(this.ctx.db, project, standing, kind, noteableId);
    const note = await this.notesOf(this.ctx.db, noteable).selectAll().where('id', '=', noteId).executeTakeFirst();
    if (!note) throw recordNotFound();
    if (!noteable.readable || (await this.hiddenCrossReferences(project, standing, [note])).size > 0) throw notFound('Note');
    return { noteable, note };
  }

  /**
   * A comment, its `commented on` event and its Note Hooks in one transaction, then the issues it
   * mentions get their cross-reference. A body that is one emoji only is an award instead (8.12's
   * `Notes::CreateService`), with no note, event or hook.
   */
  async create(
    project: Project,
    standing: ProjectStanding,
    actor: User,
    kind: NoteableKind,
    noteableId: number,
    given: NewNote,
  ): Promise<Created> {
    // 8.12 validated the note against its noteable: an unknown one, or one of another project, is
    // this 404. A noteable the caller may not read answers the same here (8.12 did not ask).
    const mismatch = notFound('Note {:invalid_project=>["Note and noteable project mismatch"]}');
    const noteable = await findNoteable(this.ctx.db, project, standing, kind, noteableId).catch(() => undefined);
    if (!noteable?.readable) throw mismatch;
    if (!can(standing, 'create_note')) throw forbidden();
    if (given.body.trim() === '') throw notGiven('body');
    // An emoji-only body is an award, unless its author may not give it (a vote on their own issue
    // or snippet): 8.12 then saved it as an ordinary note.
    const named = given.plain ? undefined : emojiOnlyName(given.body);
    const emoji = named !== undefined && mayAward(noteableAuthorId(noteable), actor.id, named) ? named : undefined;
    return inTransaction(this.ctx.db, async (trx): Promise<Created> => {
      if (emoji !== undefined) {
        const award = await recordAward(trx, { type: noteable.type, id: noteable.id }, actor.id, emoji);
        if (!award) throw notFound('Note {:name=>["has already been taken"]}');
        return { award };
      }
      const time = now();
      const createdAt = noteable.type === 'Issue' && mayDateNote(standing) ? given.createdAt : undefined;
      const note = await trx
        .insertInto('notes')
        .values({
          project_id: project.id,
          noteable_type: noteable.type,
          noteable_id: noteable.id,
          commit_id: null,
          author_id: actor.id,
          note: given.body,
          path: null,
          line: null,
          line_type: null,
          system: 0,
          attachment: null,
          type: given.diff ? (given.diff.type ?? 'DiffNote') : null,
          position: given.diff?.position ?? null,
          discussion_id: given.diff?.discussionId ?? null,
          resolved_at: given.diff?.resolved?.at ?? null,
          resolved_by_id: given.diff?.resolved?.byId ?? null,
          created_at: createdAt ?? time,
          updated_at: time,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await this.announce(trx, project, actor, noteable, note);
      return { note };
    });
  }

  /**
   * Changes a note's body: its author, masters and administrators (8.12's `admin_note`). 8.12
   * looked the note up among all the project's notes whatever the path named; here it must be a
   * note of the noteable the path names, and that noteable readable.
   */
  async update(
    project: Project,
    standing: ProjectStanding,
    actor: User,
    kind: NoteableKind,
    noteableId: number,
    noteId: number,
    body: string,
  ): Promise<NoteRow> {
    const { noteable, note } = await this.administered(project, standing, actor, kind, noteableId, noteId);
    if (body.trim() === '') throw failedTo('save note', { note: ["can't be blank"] });
    return inTransaction(this.ctx.db, async (trx) => {
      const updated = await trx
        .updateTable('notes')
        .set({ note: body, updated_at: now() })
        .where('id', '=', note.id)
        .returningAll()
        .executeTakeFirst();
      if (!updated) throw recordNotFound();
      if (noteable.type === 'Issue') await recordCrossReferences(trx, project, actor.id, noteable.issue, body);
      return updated;
    });
  }

  /** Removes a note and the award emoji given to it; answers the note as it was. */
  async remove(
    project: Project,
    standing: ProjectStanding,
    actor: User,
    kind: NoteableKind,
    noteableId: number,
    noteId: number,
  ): Promise<NoteRow> {
    const { note } = await this.administered(project, standing, actor, kind, noteableId, noteId);
    return inTransaction(this.ctx.db, async (trx) => {
      await trx.deleteFrom('award_emoji').where('awardable_type', '=', 'Note').where('awardable_id', '=', note.id).execute();
      const removed = await trx.deleteFrom('notes').where('id', '=', note.id).returningAll().executeTakeFirst();
      if (!removed) throw recordNotFound();
      return removed;
    });
  }

  private async administered(
    project: Project,
    standing: ProjectStanding,
    actor: User,
    kind: NoteableKind,
    noteableId: number,
    noteId: number,
  ) {
    const { noteable, note } = await this.locate(project, standing, kind, noteableId, noteId);
    if (note.author_id !== actor.id && !can(standing, 'admin_note')) throw forbidden();
    return { noteable, note };
  }

  private notesOf(db: Db, noteable: Noteable) {
    return db.selectFrom('notes').where('noteable_type', '=', noteable.type).where('noteable_id', '=', noteable.id);
  }

  /** 8.12's `PostProcessService` for a comment: the event, the Note Hooks, the cross-references, the todos of its mentions. */
  private async announce(trx: Db, project: Project, actor: User, noteable: Noteable, note: NoteRow): Promise<void> {
    await this.events.record(trx, {
      projectId: project.id,
      authorId: actor.id,
      action: 'commented on',
      targetId: note.id,
      targetType: 'Note',
    });
    // A merge request's payload reads its source project and last commit: only for a project with a Note Hook.
    const hooked =
      noteable.type === 'MergeRequest' &&
      (await trx.selectFrom('hooks').select('id').where('project_id', '=', project.id).where('note_events', '=', 1).executeTakeFirst());
    const parts =
      noteable.type === 'MergeRequest' && hooked
        ? await mergeRequestHookParts(this.ctx, trx, actor, noteable.mergeRequest, project)
        : undefined;
    const data = buildNoteableNoteData(note, actor, project, noteable, this.ctx.config, parts);
    await emitProjectEvents(this.ctx, trx, project.id, 'note_events', 'Note Hook', [data]);
    if (noteable.type === 'Issue') {
      await recordCrossReferences(trx, project, actor.id, noteable.issue, note.note);
      await createNoteTodos(trx, { note, issue: noteable.issue, project, author: actor });
    }
    if (noteable.type === 'MergeRequest')
      await mergeRequestNoteTodos(trx, { note, mergeRequest: noteable.mergeRequest, project, author: actor });
    if (note.system !== 1) await notify(this.ctx, trx, { kind: 'note.new', noteId: note.id });
  }

  /** Ids of the cross-reference notes naming an issue of the project the caller may not read (8.12's `cross_reference_not_visible_for?`). */
  private async hiddenCrossReferences(project: Project, standing: ProjectStanding, notes: NoteRow[]): Promise<Set<number>> {
    const references = notes.flatMap((note) => {
      const iid = note.system === 1 && note.noteable_type === 'Issue' ? crossReferencedIid(note.note) : undefined;
      return iid === undefined ? [] : [{ noteId: note.id, iid }];
    });
    if (references.length === 0) return new Set();
    const issues = await this.ctx.db
      .selectFrom('issues')
      .selectAll()
      .where('project_id', '=', project.id)
      .where(
        'iid',
        'in',
        references.map((ref) => ref.iid),
      )
      .execute();
    const readable = new Set(issues.filter((issue) => mayReadIssue(standing, issue)).map((issue) => issue.iid));
    return new Set(references.filter((ref) => !readable.has(ref.iid)).map((ref) => ref.noteId));
  }
}
