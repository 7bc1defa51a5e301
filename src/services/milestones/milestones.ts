import type { Selectable } from 'kysely';
import { containsText } from '../../db/search';
import type { Db } from '../../db/index';
import type { MilestonesTable } from '../../db/schema';
import type { ServiceContext } from '../context';
import type { EventsService } from '../events/events';
import { Validation, failedTo, invalidParam, recordNotFound } from '../../errors';
import { isUniqueViolation } from '../../db/errors';
import { inTransaction } from '../../db/transaction';
import { nextInternalId } from '../../db/internal-ids';
import { now } from '../../lib/time';
import { LIMITS } from '../../lib/limits';
import type { ProjectStanding } from '../policy';
import { milestoneProgress, type MilestoneProgress } from './progress';

export type MilestoneRow = Selectable<MilestonesTable>;

export interface MilestoneFilter {
  /** `active` or `closed`; anything else is every milestone, as in 8.12. */
  state?: string;
  /** Per-project numbers; values that are not numbers match nothing. */
  iids?: string[];
  /** Milestones whose title or description contains this text (later APIs' `search`). */
  search?: string;
}

export interface MilestoneFields {
  title?: string;
  description?: string;
  due_date?: string;
}

export interface MilestoneChanges extends MilestoneFields {
  /** `close` or `activate`; 8.12 ignored any other. */
  state_event?: string;
}

const TAKEN = 'has already been taken';
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A due date as `YYYY-MM-DD`, a day that exists. 8.12 quietly stored nothing for a date it could not
 * read; here a bad one is a clear 400.
 */
function checkDueDate(date: string | undefined): void {
  if (date === undefined) return;
  const parts = DATE.exec(date);
  const day = parts ? new Date(Date.UTC(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3]))) : undefined;
  if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== date) throw invalidParam('due_date');
}

/** A project's milestones: readers list them, masters create, change, close and reopen them. */
export class MilestonesService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly events: EventsService,
  ) {}

  private get db(): Db {
    return this.ctx.db;
  }

  /** In the database's order (8.12 gave none): oldest first. */
  async list(
    projectId: number,
    filter: MilestoneFilter,
    page: { offset: number; limit: number },
  ): Promise<{ milestones: MilestoneRow[]; total: number }> {
    let query = this.db.selectFrom('milestones').where('project_id', '=', projectId);
    if (filter.state === 'active' || filter.state === 'closed') query = query.where('state', '=', filter.state);
    if (filter.iids !== undefined && filter.iids.length > 0) {
      const iids = filter.iids.filter((iid) => /^\d{1,9}$/.test(iid)).map(Number);
      if (iids.length === 0) return { milestones: [], total: 0 };
      query = query.where('iid', 'in', iids);
    }
    if (filter.search) {
      const search = filter.search;
      query = query.where((eb) => eb.or([containsText('milestones.title', search), containsText('milestones.description', search)]));
    }
    const [milestones, count] = await Promise.all([
      query.selectAll().orderBy('id').offset(page.offset).limit(page.limit).execute(),
      query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { milestones, total: Number(count.total) };
  }

  /** Each milestone's issues the caller may read, and how many of them are closed. */
  progress(projectId: number, standing: ProjectStanding, milestoneIds: number[]): Promise<Map<number, MilestoneProgress>> {
    return milestoneProgress(this.db, projectId, standing, milestoneIds);
  }

  /** `404 Not found` (8.12's record lookup) for a milestone of another project too. */
  async find(projectId: number, id: number): Promise<MilestoneRow> {
    const milestone = await this.db
      .selectFrom('milestones')
      .selectAll()
      .where('id', '=', id)
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    if (!milestone) throw recordNotFound();
    return milestone;
  }

  /** The next `iid` of the project, and an `opened` event (8.12's `Milestones::CreateService`), in one transaction. */
  async create(projectId: number, authorId: number, fields: MilestoneFields & { title: string }): Promise<MilestoneRow> {
    checkDueDate(fields.due_date);
    const failed = (messages: Record<string, string[]>) => failedTo('create milestone', messages);
    await this.validate(projectId, fields.title, undefined, failed);
    try {
      return await inTransaction(this.db, async (trx) => {
        const time = now();
        const milestone = await trx
          .insertInto('milestones')
          .values({
            iid: await nextInternalId(trx, projectId, 'milestones'),
            project_id: projectId,
            title: fields.title,
            description: fields.description ?? null,
            due_date: fields.due_date ?? null,
            state: 'active',
            created_at: time,
            updated_at: time,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await this.recordEvent(trx, milestone, authorId, 'opened');
        return milestone;
      });
    } catch (error) {
      // A concurrent request saved the same title between the check and the insert.
      if (isUniqueViolation(error)) throw failed({ title: [TAKEN] });
      throw error;
    }
  }

  /**
   * Changes the fields given and moves the state (`close`, `activate`), recording `closed` or
   * `opened` as 8.12's Close and Reopen services did. 8.12 saved the state before validating the
   * rest, so a refused title still closed the milestone; here a refusal changes nothing.
   */
  async update(projectId: number, authorId: number, id: number, changes: MilestoneChanges): Promise<MilestoneRow> {
    const milestone = await this.find(projectId, id);
    checkDueDate(changes.due_date);
    const failed = (messages: Record<string, string[]>) => failedTo('update milestone', messages);
    if (changes.title !== undefined) await this.validate(projectId, changes.title, id, failed);
    const state = changes.state_event === 'close' ? 'closed' : changes.state_event === 'activate' ? 'active' : milestone.state;
    try {
      return await inTransaction(this.db, async (trx) => {
        const fields = {
          title: changes.title ?? milestone.title,
          description: changes.description ?? milestone.description,
          due_date: changes.due_date ?? milestone.due_date,
          updated_at: now(),
        };
        const update = () => trx.updateTable('milestones').set(fields).where('id', '=', id);
        // The state moves only from the state it was read in, so of two requests moving it at once one
        // moves it and records the event; the other changes the fields only.
        const moved =
          state === milestone.state
            ? undefined
            : await update().set({ state }).where('state', '=', milestone.state).returningAll().executeTakeFirst();
        if (moved) {
          await this.recordEvent(trx, moved, authorId, state === 'closed' ? 'closed' : 'opened');
          return moved;
        }
        const updated = await update().returningAll().executeTakeFirst();
        if (!updated) throw recordNotFound();
        return updated;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw failed({ title: [TAKEN] });
      throw error;
    }
  }

  /** 8.12's Milestone validations: a title, unique in the project; and here the column's length. */
  private async validate(
    projectId: number,
    title: string,
    exceptId: number | undefined,
    failed: (messages: Record<string, string[]>) => Error,
  ): Promise<void> {
    const validation = new Validation();
    let others = this.db.selectFrom('milestones').select('id').where('project_id', '=', projectId).where('title', '=', title);
    if (exceptId !== undefined) others = others.where('id', '<>', exceptId);
    if (await others.executeTakeFirst()) validation.add('title', TAKEN);
    if ([...title].length > LIMITS.name) validation.add('title', `is too long (maximum is ${LIMITS.name} characters)`);
    if (!validation.ok) throw failed(validation.messages);
  }

  private recordEvent(trx: Db, milestone: MilestoneRow, authorId: number, action: 'opened' | 'closed'): Promise<void> {
    return this.events.record(trx, {
      projectId: milestone.project_id,
      authorId,
      action,
      targetId: milestone.id,
      targetType: 'Milestone',
      targetTitle: milestone.title,
    });
  }
}
