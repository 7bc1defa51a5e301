import type { Selectable } from 'kysely';
import type { Db } from '../../db/index';
import type { EventsTable, NotesTable } from '../../db/schema';
import type { ServiceContext } from '../context';
import { now } from '../../lib/time';
import { chunksOf } from '../../db/chunks';
import type { Caller, ProjectStanding } from '../policy';
import { visibleEventsAcross, visibleEventsIn } from '../policy-reads';

export type EventRow = Selectable<EventsTable>;
// Notes record events: the row is named from the schema, not from `notes/`, which sits above events.
type NoteRow = Selectable<NotesTable>;

export interface NewEvent {
  projectId: number;
  authorId: number | null;
  /** GitLab's action name: `created`, `joined`, `left`, `pushed to`, `pushed new`, `deleted`, `opened`, … */
  action: string;
  targetId?: number | null;
  targetType?: string | null;
  targetTitle?: string | null;
  data?: unknown;
}

/** Project activity, newest first. Other domains record their events through `record`. */
export class EventsService {
  constructor(private readonly ctx: ServiceContext) {}

  async record(executor: Db, event: NewEvent): Promise<void> {
    await this.recordMany(executor, [event]);
  }

  /** Several events, in this order, in as few inserts as the database's parameter limit allows. */
  async recordMany(executor: Db, events: NewEvent[]): Promise<void> {
    const time = now();
    const rows = events.map((event) => ({
      project_id: event.projectId,
      author_id: event.authorId,
      action: event.action,
      target_id: event.targetId ?? null,
      target_type: event.targetType ?? null,
      target_title: event.targetTitle ?? null,
      data: event.data === undefined ? null : JSON.stringify(event.data),
      created_at: time,
      updated_at: time,
    }));
    for (const chunk of chunksOf(rows)) await executor.insertInto('events').values(chunk).execute();
  }

  /** A project's events the caller may see (`visibleEventsIn`), newest first; the page and its total are filtered alike. */
  async list(
    projectId: number,
    standing: ProjectStanding,
    page: { offset: number; limit: number },
  ): Promise<{ events: EventRow[]; total: number }> {
    const query = this.ctx.db
      .selectFrom('events')
      .where('events.project_id', '=', projectId)
      .where(visibleEventsIn(this.ctx.db, projectId, standing));
    const [events, count] = await Promise.all([
      query.selectAll().orderBy('id', 'desc').offset(page.offset).limit(page.limit).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { events, total: Number(count.total) };
  }

  /** A user's events across the projects, as far as the caller may see each (`visibleEventsAcross`); newest first unless `sort` is `asc`. */
  async listByAuthor(
    caller: Caller,
    authorId: number,
    options: { sort?: 'asc' | 'desc'; targetType?: string; offset: number; limit: number },
  ): Promise<{ events: EventRow[]; total: number }> {
    let query = this.ctx.db.selectFrom('events').where('events.author_id', '=', authorId).where(visibleEventsAcross(this.ctx.db, caller));
    if (options.targetType) query = query.where('events.target_type', '=', options.targetType);
    const [events, count] = await Promise.all([
      query
        .selectAll()
        .orderBy('id', options.sort ?? 'desc')
        .offset(options.offset)
        .limit(options.limit)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { events, total: Number(count.total) };
  }

  /** The notes that comment events (`target_type` Note) point at, by id. */
  async notesOf(events: EventRow[]): Promise<Map<number, NoteRow>> {
    const ids = events.flatMap((event) => (event.target_type === 'Note' && event.target_id !== null ? [event.target_id] : []));
    if (ids.length === 0) return new Map();
    const notes = await this.ctx.db.selectFrom('notes').selectAll().where('id', 'in', ids).execute();
    return new Map(notes.map((note) => [note.id, note]));
  }
}
