import type { Selectable } from 'kysely';
import type { AwardEmojiTable } from '../../db/schema';
import type { ServiceContext } from '../context';
import type { Project } from '../projects/types';
import { mayRemoveAward, type Caller, type ProjectStanding } from '../policy';
import { notFound, notFoundWithMessages, recordNotFound, unauthorized } from '../../errors';
import { mayReadIssue, mayReadMergeRequest, mayReadSnippet } from '../policy-reads';
import { mayAward, recordAward, type Awardable } from './awards';
import { isEmojiName, normalizeEmojiName } from './names';

export type AwardRow = Selectable<AwardEmojiTable>;

/** The path's awardable: a project's issue, merge request or snippet by its global id, or one of its notes. */
export interface AwardTarget {
  kind: 'issue' | 'snippet' | 'merge_request';
  id: number;
  noteId?: number;
}

type Page = { offset: number; limit: number };

/** What a target resolves to: the awardable, whether the caller may read it, and who wrote it. */
interface Resolved {
  awardable: Awardable;
  readable: boolean;
  authorId: number | null;
}

/**
 * Award emoji on a project's issues and snippets and on their notes (GitLab 8.12's `award_emoji.rb`):
 * whoever reads the awardable lists and gives awards, but never a vote on what they wrote themselves;
 * an award is removed by its owner or an administrator.
 */
export class AwardEmojiService {
  constructor(private readonly ctx: ServiceContext) {}

  /** Oldest first (by id), one page. */
  async list(project: Project, standing: ProjectStanding, target: AwardTarget, page: Page): Promise<{ awards: AwardRow[]; total: number }> {
    const { awardable } = await this.readable(project, standing, target);
    const query = this.awardsOf(awardable);
    const [awards, count] = await Promise.all([
      query.selectAll().orderBy('id').offset(page.offset).limit(page.limit).execute(),
      query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { awards, total: Number(count.total) };
  }

  async find(project: Project, standing: ProjectStanding, target: AwardTarget, awardId: number): Promise<AwardRow> {
    const { awardable } = await this.readable(project, standing, target);
    return this.award(awardable, awardId);
  }

  /**
   * 8.12's order: the awardable (404), the right to read it and to give this name (`404 Award Emoji
   * Not Found`), then the record's validations, answered as a 404 with their messages. Two identical
   * awards at once insert one: the other is `has already been taken`, as a second request would be.
   */
  async create(project: Project, standing: ProjectStanding, caller: Caller, target: AwardTarget, name: string): Promise<AwardRow> {
    const { awardable, readable, authorId } = await this.resolve(project, standing, target);
    const normalized = normalizeEmojiName(name);
    if (!readable || !mayAward(authorId, caller.id, normalized)) throw notFound('Award Emoji');
    // A blank name never comes here: the door answers it as a missing one.
    if (!isEmojiName(normalized)) throw notFoundWithMessages('Award Emoji', { name: ['is not included in the list'] });
    const award = await recordAward(this.ctx.db, awardable, caller.id, normalized);
    if (!award) throw notFoundWithMessages('Award Emoji', { name: ['has already been taken'] });
    return award;
  }

  /**
   * Removes an award: its owner or an administrator (anyone else 401, as 8.12 answered). 8.12 did
   * not ask whether the caller still reads the awardable here; Forge does, so a confidential issue
   * or a private snippet stays 404 to those who may not see it.
   */
  async remove(project: Project, standing: ProjectStanding, caller: Caller, target: AwardTarget, awardId: number): Promise<AwardRow> {
    const { awardable } = await this.readable(project, standing, target);
    const award = await this.award(awardable, awardId);
    if (!mayRemoveAward(caller, award)) throw unauthorized();
    const removed = await this.ctx.db.deleteFrom('award_emoji').where('id', '=', award.id).returningAll().executeTakeFirst();
    // Removed by a concurrent request since it was read.
    if (!removed) throw recordNotFound();
    return removed;
  }

  private awardsOf(awardable: Awardable) {
    return this.ctx.db.selectFrom('award_emoji').where('awardable_type', '=', awardable.type).where('awardable_id', '=', awardable.id);
  }

  private async award(awardable: Awardable, awardId: number): Promise<AwardRow> {
    const award = await this.awardsOf(awardable).selectAll().where('id', '=', awardId).executeTakeFirst();
    if (!award) throw recordNotFound();
    return award;
  }

  private async readable(project: Project, standing: ProjectStanding, target: AwardTarget): Promise<Resolved> {
    const resolved = await this.resolve(project, standing, target);
    if (!resolved.readable) throw notFound('Award Emoji');
    return resolved;
  }

  /**
   * The issue or snippet of this project (`404 Not found`, 8.12's failed `find`), then the note of
   * it when the path names one; a note is read as its issue or snippet is.
   */
  private async resolve(project: Project, standing: ProjectStanding, target: AwardTarget): Promise<Resolved> {
    const { db } = this.ctx;
    let parent: Resolved;
    if (target.kind === 'issue') {
      const issue = await db
        .selectFrom('issues')
        .selectAll()
        .where('id', '=', target.id)
        .where('project_id', '=', project.id)
        .executeTakeFirst();
      if (!issue) throw recordNotFound();
      parent = { awardable: { type: 'Issue', id: issue.id }, readable: mayReadIssue(standing, issue), authorId: issue.author_id };
    } else if (target.kind === 'merge_request') {
      const mergeRequest = await db
        .selectFrom('merge_requests')
        .selectAll()
        .where('id', '=', target.id)
        .where('target_project_id', '=', project.id)
        .executeTakeFirst();
      if (!mergeRequest) throw recordNotFound();
      parent = {
        awardable: { type: 'MergeRequest', id: mergeRequest.id },
        readable: mayReadMergeRequest(standing),
        authorId: mergeRequest.author_id,
      };
    } else {
      const snippet = await db
        .selectFrom('snippets')
        .selectAll()
        .where('id', '=', target.id)
        .where('project_id', '=', project.id)
        .executeTakeFirst();
      if (!snippet) throw recordNotFound();
      parent = { awardable: { type: 'Snippet', id: snippet.id }, readable: mayReadSnippet(standing, snippet), authorId: snippet.author_id };
    }
    if (target.noteId === undefined) return parent;
    const note = await db
      .selectFrom('notes')
      .select(['id', 'author_id'])
      .where('id', '=', target.noteId)
      .where('noteable_type', '=', parent.awardable.type)
      .where('noteable_id', '=', parent.awardable.id)
      .executeTakeFirst();
    if (!note) throw recordNotFound();
    return { awardable: { type: 'Note', id: note.id }, readable: parent.readable, authorId: note.author_id };
  }
}
