import crypto from 'node:crypto';
import type { ServiceContext } from '../context';
import type { Project } from '../projects/types';
import type { User } from '../users/users';
import type { MergeRequestReadsService, VersionView } from '../merge-requests/reads';
import type { NoteableNotesService } from './noteable-notes';
import type { NoteRow } from './types';
import { mayResolveDiscussion, type ProjectStanding } from '../policy';
import { mayReadMergeRequest } from '../policy-reads';
import { forbidden, notFound, notGiven, validationFailed } from '../../errors';
import { now } from '../../lib/time';
import { lineFinder, parsePosition, positionLineCode, type DiffPosition } from './diff-positions';

/** A thread of notes: one note of its own (`individualNote`), or a line comment and its answers. */
export interface Discussion {
  id: string;
  individualNote: boolean;
  notes: NoteRow[];
}

/** Where a line comment sits on the version looked at: on its line (its line code), or not there (outdated, on the latest). */
export type Placement = { outdated: false; lineCode: string } | { outdated: true; lineCode?: undefined };

/** What a new line comment names: the version's commits default to the latest version's. */
export interface NewDiffNote {
  body: string;
  position: GivenPosition;
}

/** A position as the API or a page gives it: line numbers may be text, the commits may be left out. */
export type GivenPosition = Partial<Record<'base_sha' | 'start_sha' | 'head_sha' | 'old_path' | 'new_path' | 'position_type', string>> & {
  old_line?: number | string | null;
  new_line?: number | string | null;
};

/** Every note of a merge request is read for its discussions: more is past any real review. */
const NOTES_READ = 10_000;

/** The discussion id of a note without one: stable, so that the API can name it. */
const individualId = (note: NoteRow) => note.discussion_id ?? crypto.hash('sha1', `note_${note.id}`, 'hex');

/** Notes, oldest first, as their discussions: each note in its discussion's first note's place. */
export function groupDiscussions(notes: NoteRow[]): Discussion[] {
  const byId = new Map<string, Discussion>();
  for (const note of notes) {
    const id = individualId(note);
    const found = byId.get(id);
    if (found) found.notes.push(note);
    else byId.set(id, { id, individualNote: note.discussion_id === null, notes: [note] });
  }
  return [...byId.values()];
}

/**
 * Comments on a line of a merge request's diff (GitLab 10's `DiffNote`) and the discussions the
 * notes of a merge request make (`Discussions` API): creating one, listing them, resolving them,
 * and whether a comment's line is still in the latest version (else it is outdated).
 */
export class MergeRequestDiscussionsService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly notes: NoteableNotesService,
    private readonly reads: MergeRequestReadsService,
  ) {}

  /** The merge request's discussions, oldest first, each note in its first note's place. */
  async list(project: Project, standing: ProjectStanding, mergeRequestId: number): Promise<Discussion[]> {
    const { notes } = await this.notes.list(project, standing, 'merge_requests', mergeRequestId, { offset: 0, limit: NOTES_READ });
    return groupDiscussions(notes);
  }

  /**
   * The merge request's line comments with their replies, and nothing else: what the Changes tab
   * draws, read without the rest of the notes (an index covers the noteable and the type).
   */
  async lineDiscussions(project: Project, standing: ProjectStanding, mergeRequestId: number): Promise<Discussion[]> {
    const mergeRequest = await this.reads.find(project, mergeRequestId);
    if (!mayReadMergeRequest(standing)) throw notFound('Notes');
    const notes = await this.ctx.db
      .selectFrom('notes')
      .selectAll()
      .where('noteable_type', '=', 'MergeRequest')
      .where('noteable_id', '=', mergeRequest.id)
      .where('type', '=', 'DiffNote')
      .orderBy('id')
      .limit(NOTES_READ)
      .execute();
    return groupDiscussions(notes);
  }

  /** One discussion: a thread by its stored id (indexed), else a note of its own by the id made from it. */
  async find(project: Project, standing: ProjectStanding, mergeRequestId: number, discussionId: string): Promise<Discussion> {
    const mergeRequest = await this.reads.find(project, mergeRequestId);
    if (!mayReadMergeRequest(standing)) throw notFound('Discussion');
    const thread = await this.ctx.db
      .selectFrom('notes')
      .selectAll()
      .where('discussion_id', '=', discussionId)
      .where('noteable_type', '=', 'MergeRequest')
      .where('noteable_id', '=', mergeRequest.id)
      .orderBy('id')
      .execute();
    if (thread.length > 0) return { id: discussionId, individualNote: false, notes: thread };
    const found = (await this.list(project, standing, mergeRequestId)).find((discussion) => discussion.id === discussionId);
    if (!found) throw notFound('Discussion');
    return found;
  }

  /**
   * Opens a discussion on a line of a version's diff. The position must name a version of the
   * merge request (its three commits; the latest version's when none are given) and a line of
   * that version's diff; else it is refused as invalid.
   */
  async create(project: Project, standing: ProjectStanding, actor: User, mergeRequestId: number, given: NewDiffNote): Promise<Discussion> {
    if (given.body.trim() === '') throw notGiven('body');
    const position = await this.checkedPosition(project, mergeRequestId, given.position);
    const created = await this.notes.create(project, standing, actor, 'merge_requests', mergeRequestId, {
      body: given.body,
      plain: true,
      diff: { position: JSON.stringify(position), discussionId: crypto.randomBytes(20).toString('hex') },
    });
    const note = created.note!;
    return { id: note.discussion_id!, individualNote: false, notes: [note] };
  }

  /**
   * A reply in a discussion (GitLab 11's `POST …/discussions/:id/notes`): a note of the same
   * discussion, with the thread's position when it is a line comment's, and resolved when the
   * thread is. A comment of its own becomes a thread first (`DiscussionNote`); a system note
   * cannot be answered. `settle` resolves (true) or unresolves (false) the thread after the note
   * (GitLab's "Comment & resolve discussion"), refused as `resolve` refuses it before anything is written.
   */
  async reply(
    project: Project,
    standing: ProjectStanding,
    actor: User,
    mergeRequestId: number,
    discussionId: string,
    body: string,
    settle?: boolean,
  ): Promise<NoteRow> {
    if (body.trim() === '') throw notGiven('body');
    const discussion = await this.find(project, standing, mergeRequestId, discussionId);
    const first = discussion.notes[0];
    if (first.system === 1) throw notGiven('Discussion can not be replied to.');
    if (settle !== undefined) {
      if (discussion.individualNote) throw validationFailed({ base: ['Discussion is not resolvable'] });
      const mergeRequest = await this.reads.find(project, mergeRequestId);
      if (!mayResolveDiscussion(standing, mergeRequest, first.author_id)) throw forbidden();
    }
    if (discussion.individualNote) {
      await this.ctx.db
        .updateTable('notes')
        .set({ discussion_id: discussion.id, type: 'DiscussionNote' })
        .where('id', '=', first.id)
        .execute();
    }
    const created = await this.notes.create(project, standing, actor, 'merge_requests', mergeRequestId, {
      body,
      plain: true,
      diff: {
        type: first.type === 'DiffNote' ? 'DiffNote' : 'DiscussionNote',
        position: first.position,
        discussionId: discussion.id,
        resolved: first.resolved_at === null ? undefined : { at: first.resolved_at, byId: first.resolved_by_id },
      },
    });
    if (settle !== undefined) await this.resolve(project, standing, actor, mergeRequestId, discussion.id, settle);
    return created.note!;
  }

  /** Changes a note of the discussion (its author, masters, administrators): `404 Note Not Found` for a note of another. */
  async updateNote(
    project: Project,
    standing: ProjectStanding,
    actor: User,
    mergeRequestId: number,
    discussionId: string,
    noteId: number,
    body: string,
  ): Promise<NoteRow> {
    await this.noteOf(project, standing, mergeRequestId, discussionId, noteId);
    return this.notes.update(project, standing, actor, 'merge_requests', mergeRequestId, noteId, body);
  }

  /** Removes a note of the discussion, as `DELETE …/notes/:id` does. */
  async removeNote(
    project: Project,
    standing: ProjectStanding,
    actor: User,
    mergeRequestId: number,
    discussionId: string,
    noteId: number,
  ): Promise<NoteRow> {
    await this.noteOf(project, standing, mergeRequestId, discussionId, noteId);
    return this.notes.remove(project, standing, actor, 'merge_requests', mergeRequestId, noteId);
  }

  private async noteOf(project: Project, standing: ProjectStanding, mergeRequestId: number, discussionId: string, noteId: number) {
    const discussion = await this.find(project, standing, mergeRequestId, discussionId);
    const note = discussion.notes.find((each) => each.id === noteId);
    if (!note) throw notFound('Note');
    return note;
  }

  /** A comment of its own (`POST …/discussions` without a position), as `POST …/notes` makes it. */
  async createIndividual(
    project: Project,
    standing: ProjectStanding,
    actor: User,
    mergeRequestId: number,
    body: string,
  ): Promise<Discussion> {
    const created = await this.notes.create(project, standing, actor, 'merge_requests', mergeRequestId, { body, plain: true });
    const note = created.note!;
    return { id: individualId(note), individualNote: true, notes: [note] };
  }

  /**
   * Resolves or unresolves a line comment's discussion: the merge request's author, the comment's
   * author, and those who may update the merge request.
   */
  async resolve(
    project: Project,
    standing: ProjectStanding,
    actor: User,
    mergeRequestId: number,
    discussionId: string,
    resolved: boolean,
  ): Promise<Discussion> {
    const discussion = await this.find(project, standing, mergeRequestId, discussionId);
    if (discussion.individualNote) throw validationFailed({ base: ['Discussion is not resolvable'] });
    const mergeRequest = await this.reads.find(project, mergeRequestId);
    if (!mayResolveDiscussion(standing, mergeRequest, discussion.notes[0].author_id)) throw forbidden();
    const time = now();
    await this.ctx.db
      .updateTable('notes')
      .set(
        resolved
          ? { resolved_at: time, resolved_by_id: actor.id, updated_at: time }
          : { resolved_at: null, resolved_by_id: null, updated_at: time },
      )
      .where('discussion_id', '=', discussionId)
      .where('noteable_type', '=', 'MergeRequest')
      .where('noteable_id', '=', mergeRequest.id)
      .execute();
    return this.find(project, standing, mergeRequestId, discussionId);
  }

  /**
   * Where each line comment's discussion sits on the version looked at (the latest when `view` is
   * not given). On the latest version against its base: on the same line when it was made on that
   * version, or when the latest version still has its line, numbered and written the same; else
   * outdated. On an older version, or a comparison of two: where it was made on that very view.
   * Keyed by discussion id; individual notes are left out.
   */
  async placements(
    project: Project,
    mergeRequestId: number,
    discussions: Discussion[],
    view?: VersionView,
  ): Promise<Map<string, Placement>> {
    const placed = new Map<string, Placement>();
    const positioned = discussions.flatMap((discussion) => {
      const position = parsePosition(discussion.notes[0].position);
      return position ? [{ discussion, position }] : [];
    });
    if (positioned.length === 0) return placed;
    const at = view ?? (await this.reads.view(project, mergeRequestId, {}));
    const onLine = (position: DiffPosition): Placement => ({
      outdated: false,
      lineCode: positionLineCode(position.new_path, position.old_line, position.new_line),
    });
    if (at && (at.start || at.version.id !== at.versions[0].id)) {
      for (const { discussion, position } of positioned)
        placed.set(discussion.id, sameRefs(position, at) ? onLine(position) : { outdated: true });
      return placed;
    }
    const latest = lineFinder(at?.diffs ?? []);
    const older = new Map<string, Promise<((position: DiffPosition) => ReturnType<ReturnType<typeof lineFinder>>) | undefined>>();
    for (const { discussion, position } of positioned) {
      const now = latest(position);
      let here = now !== undefined && at !== undefined && sameRefs(position, at);
      if (now && !here) {
        // Made on another view: still here if that view had the same line, written the same.
        const key = `${position.base_sha}\0${position.start_sha}\0${position.head_sha}`;
        if (!older.has(key))
          older.set(
            key,
            this.reads.viewAt(project, mergeRequestId, position).then((then) => then && lineFinder(then.diffs)),
          );
        const then = (await older.get(key))?.(position);
        here = then?.line.text === now.line.text;
      }
      placed.set(discussion.id, here ? onLine(position) : { outdated: true });
    }
    return placed;
  }

  /** The position filled in from the latest version where it names no commits, and checked against its view's diff. */
  private async checkedPosition(project: Project, mergeRequestId: number, given: GivenPosition): Promise<DiffPosition> {
    const invalid = validationFailed({ position: ['is invalid'] });
    const latest = await this.reads.view(project, mergeRequestId, {});
    if (!latest) throw invalid;
    const newPath = given.new_path || given.old_path;
    const oldPath = given.old_path || given.new_path;
    const oldLine = lineNumber(given.old_line);
    const newLine = lineNumber(given.new_line);
    if (!newPath || !oldPath || oldLine === undefined || newLine === undefined || (oldLine === null && newLine === null)) throw invalid;
    if (given.position_type !== undefined && given.position_type !== 'text') throw invalid;
    // Commits not given are the latest version's; a start not given is not asked about (a comparison's is its base).
    const named = given.base_sha || given.start_sha || given.head_sha;
    const refs = {
      base_sha: given.base_sha || latest.refs.base_sha,
      start_sha: given.start_sha || '',
      head_sha: given.head_sha || latest.refs.head_sha,
    };
    const view = named ? await this.reads.viewAt(project, mergeRequestId, refs) : latest;
    if (!view) throw invalid;
    const position: DiffPosition = {
      ...view.refs,
      old_path: oldPath,
      new_path: newPath,
      position_type: 'text',
      old_line: oldLine,
      new_line: newLine,
    };
    if (!lineFinder(view.diffs)(position)) throw invalid;
    return position;
  }
}

/** Whether a position was made on this view (a start that was not given is not asked about). */
const sameRefs = (position: DiffPosition, view: VersionView) =>
  position.head_sha === view.refs.head_sha &&
  position.base_sha === view.refs.base_sha &&
  (position.start_sha === '' || position.start_sha === view.refs.start_sha);

/** A line number as the API or a form gives it: null for none, undefined for something that is not one. */
function lineNumber(value: unknown): number | null | undefined {
  if (value === undefined || value === null || value === '') return null;
  const text = String(value);
  return /^\d{1,9}$/.test(text) && Number(text) > 0 ? Number(text) : undefined;
}
