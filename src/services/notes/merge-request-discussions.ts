import crypto from 'node:crypto';
import type { ServiceContext } from '../context';
import type { Project } from '../projects/types';
import type { User } from '../users/users';
import type { MergeRequestReadsService } from '../merge-requests/reads';
import type { MergeRequestVersionRow } from '../merge-requests/types';
import type { NoteableNotesService } from './noteable-notes';
import type { NoteRow } from './types';
import { mayResolveDiscussion, type ProjectStanding } from '../policy';
import { forbidden, notFound, notGiven, validationFailed } from '../../errors';
import { now } from '../../lib/time';
import { lineAt, parsePosition, positionLineCode, type DiffPosition } from './diff-positions';

/** A thread of notes: one note of its own (`individualNote`), or a line comment and its answers. */
export interface Discussion {
  id: string;
  individualNote: boolean;
  notes: NoteRow[];
}

/** Where a line comment sits now: on the latest version's line (its line code), or outdated. */
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
    const byId = new Map<string, Discussion>();
    for (const note of notes) {
      const id = individualId(note);
      const found = byId.get(id);
      if (found) found.notes.push(note);
      else byId.set(id, { id, individualNote: note.discussion_id === null, notes: [note] });
    }
    return [...byId.values()];
  }

  async find(project: Project, standing: ProjectStanding, mergeRequestId: number, discussionId: string): Promise<Discussion> {
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
   * Where each line comment's discussion sits on the latest version: on the same line when it was
   * made on that version, or when the latest version still has its line, numbered and written the
   * same; else outdated. Keyed by discussion id; individual notes are left out.
   */
  async placements(project: Project, mergeRequestId: number, discussions: Discussion[]): Promise<Map<string, Placement>> {
    const placed = new Map<string, Placement>();
    const positioned = discussions.flatMap((discussion) => {
      const position = parsePosition(discussion.notes[0].position);
      return position ? [{ discussion, position }] : [];
    });
    if (positioned.length === 0) return placed;
    const versions = await this.reads.versions(project, mergeRequestId);
    const latest = versions[0];
    const latestDiffs = latest ? (await this.reads.version(project, mergeRequestId, latest.id)).diffs : [];
    const olderDiffs = new Map<number, Promise<Awaited<ReturnType<MergeRequestReadsService['version']>>['diffs']>>();
    for (const { discussion, position } of positioned) {
      const version = versions.find((candidate) => sameVersion(candidate, position));
      const now = lineAt(latestDiffs, position);
      let onLine = now !== undefined && version !== undefined && version.id === latest?.id;
      if (now && version && !onLine) {
        if (!olderDiffs.has(version.id))
          olderDiffs.set(
            version.id,
            this.reads.version(project, mergeRequestId, version.id).then((contents) => contents.diffs),
          );
        const then = lineAt(await olderDiffs.get(version.id)!, position);
        onLine = then?.line.text === now.line.text;
      }
      placed.set(
        discussion.id,
        onLine
          ? { outdated: false, lineCode: positionLineCode(position.new_path, position.old_line, position.new_line) }
          : { outdated: true },
      );
    }
    return placed;
  }

  /** The position filled in from the latest version where it names no commits, and checked against its version's diff. */
  private async checkedPosition(project: Project, mergeRequestId: number, given: GivenPosition): Promise<DiffPosition> {
    const invalid = validationFailed({ position: ['is invalid'] });
    const versions = await this.reads.versions(project, mergeRequestId);
    const latest = versions[0];
    if (!latest) throw invalid;
    const newPath = given.new_path || given.old_path;
    const oldPath = given.old_path || given.new_path;
    const oldLine = lineNumber(given.old_line);
    const newLine = lineNumber(given.new_line);
    if (!newPath || !oldPath || oldLine === undefined || newLine === undefined || (oldLine === null && newLine === null)) throw invalid;
    if (given.position_type !== undefined && given.position_type !== 'text') throw invalid;
    const position: DiffPosition = {
      base_sha: given.base_sha || latest.base_commit_sha || '',
      start_sha: given.start_sha || latest.start_commit_sha || '',
      head_sha: given.head_sha || latest.head_commit_sha || '',
      old_path: oldPath,
      new_path: newPath,
      position_type: 'text',
      old_line: oldLine,
      new_line: newLine,
    };
    const version = versions.find((candidate) => sameVersion(candidate, position));
    if (!version) throw invalid;
    const { diffs } = await this.reads.version(project, mergeRequestId, version.id);
    if (!lineAt(diffs, position)) throw invalid;
    return position;
  }
}

/** Whether a position names this version's commits (a start that is not given is not asked about). */
const sameVersion = (version: MergeRequestVersionRow, position: DiffPosition) =>
  version.head_commit_sha === position.head_sha &&
  version.base_commit_sha === position.base_sha &&
  (position.start_sha === '' || version.start_commit_sha === position.start_sha);

/** A line number as the API or a form gives it: null for none, undefined for something that is not one. */
function lineNumber(value: unknown): number | null | undefined {
  if (value === undefined || value === null || value === '') return null;
  const text = String(value);
  return /^\d{1,9}$/.test(text) && Number(text) > 0 ? Number(text) : undefined;
}
