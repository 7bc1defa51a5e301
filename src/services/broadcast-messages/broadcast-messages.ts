import type { Selectable } from 'kysely';
import type { BroadcastMessagesTable } from '../../db/schema';
import type { ServiceContext } from '../context';
import { Validation, recordNotFound } from '../../errors';
import { now } from '../../lib/time';
import { RecentCache } from '../../lib/recent-cache';

export type BroadcastMessage = Selectable<BroadcastMessagesTable>;

/** What a client may set; times are as given, validated and normalized here. */
export interface BroadcastMessageAttributes {
  message?: string;
  starts_at?: string;
  ends_at?: string;
  color?: string;
  font?: string;
}

const DEFAULT_COLOR = '#E75E40';
const DEFAULT_FONT = '#FFFFFF';
const DEFAULT_DURATION_MS = 60 * 60 * 1000;
/** Every web page shows the active messages: read at most this often (another process's change shows within it). */
const CURRENT_MS = 5_000;
/** Messages shown at once, oldest first. */
const SHOWN = 10;
/** Messages not yet ended that are kept to choose from; beyond it, the database is asked each time. */
const KEPT = 100;

/** GitLab's ColorValidator: `#` and exactly 3 or 6 hex digits. */
const COLOR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

/**
 * ISO 8601 dates and times, also with a space for `T` and ` UTC` for `Z` (Ruby's `Time#to_s`).
 * A time without a zone is UTC, as Rails reads it (JavaScript would read local time).
 */
const TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?) ?(Z|UTC|[+-]\d{2}:?\d{2})?)?$/i;

/** `active` is true exactly while now lies within [starts_at, ends_at]. */
export function isActive(message: Pick<BroadcastMessage, 'starts_at' | 'ends_at'>, at: number = Date.now()): boolean {
  return Date.parse(message.starts_at) <= at && at <= Date.parse(message.ends_at);
}

/** Broadcast messages shown to every user during their window; administrators manage them. */
export class BroadcastMessagesService {
  /**
   * The messages not yet ended, oldest first: each page picks those whose window holds its moment,
   * so that a message starts and ends on time whatever was kept. A change in this process drops it.
   */
  private readonly current = new RecentCache<'current', BroadcastMessage[]>(CURRENT_MS, 1);

  constructor(private readonly ctx: ServiceContext) {}

  async list(page: { offset: number; limit: number }): Promise<{ messages: BroadcastMessage[]; total: number }> {
    const [messages, count] = await Promise.all([
      this.ctx.db.selectFrom('broadcast_messages').selectAll().orderBy('id').offset(page.offset).limit(page.limit).execute(),
      this.ctx.db
        .selectFrom('broadcast_messages')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow(),
    ]);
    return { messages, total: Number(count.total) };
  }

  /** The messages whose window holds this moment, oldest first: every page shows them. */
  async active(): Promise<BroadcastMessage[]> {
    const at = now();
    const current = await this.current.get('current', () => this.notEnded(at));
    if (current === undefined || current.length >= KEPT) return this.activeAt(at);
    return current.filter((message) => message.starts_at <= at && at <= message.ends_at).slice(0, SHOWN);
  }

  private notEnded(at: string): Promise<BroadcastMessage[]> {
    return this.ctx.db.selectFrom('broadcast_messages').selectAll().where('ends_at', '>=', at).orderBy('id').limit(KEPT).execute();
  }

  private activeAt(at: string): Promise<BroadcastMessage[]> {
    return this.ctx.db
      .selectFrom('broadcast_messages')
      .selectAll()
      .where('starts_at', '<=', at)
      .where('ends_at', '>=', at)
      .orderBy('id')
      .limit(SHOWN)
      .execute();
  }

  async find(id: number): Promise<BroadcastMessage> {
    const message = await this.ctx.db.selectFrom('broadcast_messages').selectAll().where('id', '=', id).executeTakeFirst();
    if (!message) throw recordNotFound();
    return message;
  }

  /** Window defaults to [now, now + 1 hour], colours to GitLab's. */
  async create(attributes: BroadcastMessageAttributes & { message: string }): Promise<BroadcastMessage> {
    const time = now();
    const changes = validated(attributes);
    const created = await this.ctx.db
      .insertInto('broadcast_messages')
      .values({
        message: attributes.message,
        starts_at: changes.starts_at ?? time,
        ends_at: changes.ends_at ?? new Date(Date.parse(time) + DEFAULT_DURATION_MS).toISOString(),
        color: changes.color ?? DEFAULT_COLOR,
        font: changes.font ?? DEFAULT_FONT,
        created_at: time,
        updated_at: time,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    // After the write: a page read that began before it is then not kept either.
    this.current.forgetAll();
    return created;
  }

  /** Changes only the attributes given. */
  async update(id: number, attributes: BroadcastMessageAttributes): Promise<BroadcastMessage> {
    const changes = validated(attributes);
    const updated = await this.ctx.db
      .updateTable('broadcast_messages')
      .set({ ...changes, updated_at: now() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    this.current.forgetAll();
    if (!updated) throw recordNotFound();
    return updated;
  }

  /** Deletes a message and answers it as it was. */
  async delete(id: number): Promise<BroadcastMessage> {
    const deleted = await this.ctx.db.deleteFrom('broadcast_messages').where('id', '=', id).returningAll().executeTakeFirst();
    this.current.forgetAll();
    if (!deleted) throw recordNotFound();
    return deleted;
  }
}

/** The given attributes checked and normalized (times as ISO UTC); a 400 naming each bad field otherwise. */
function validated(attributes: BroadcastMessageAttributes): BroadcastMessageAttributes {
  const validation = new Validation();
  const changes: BroadcastMessageAttributes = {};
  if (attributes.message !== undefined) {
    if (attributes.message.trim() === '') validation.add('message', "can't be blank");
    changes.message = attributes.message;
  }
  for (const field of ['starts_at', 'ends_at'] as const) {
    const value = attributes[field];
    if (value === undefined) continue;
    if (value.trim() === '') {
      validation.add(field, "can't be blank");
      continue;
    }
    const time = parseUtcTime(value);
    if (time === undefined) validation.add(field, 'is invalid');
    changes[field] = time;
  }
  // GitLab lets a blank colour through (`allow_blank`) and then renders no colour at all;
  // here a colour is always a colour code.
  for (const field of ['color', 'font'] as const) {
    const value = attributes[field];
    if (value === undefined) continue;
    if (!COLOR.test(value)) validation.add(field, 'must be a valid color code');
    changes[field] = value;
  }
  validation.throwIfInvalid();
  return changes;
}

/** A client's time as ISO 8601 UTC, or undefined when it is not one. */
function parseUtcTime(value: string): string | undefined {
  const match = TIME.exec(value.trim());
  if (!match) return undefined;
  const [, date, clock = '00:00', zone = 'Z'] = match;
  // JavaScript rolls 2016-02-30 over into March; GitLab refuses it.
  if (Number.isNaN(Date.parse(date)) || new Date(date).toISOString().slice(0, 10) !== date) return undefined;
  const offset = /^(z|utc)$/i.test(zone) ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const time = new Date(`${date}T${clock}${offset}`);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}
