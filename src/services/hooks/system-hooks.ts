import type { Selectable } from 'kysely';
import type { HooksTable } from '../../db/schema';
import type { ServiceContext } from '../context';
import type { HookDelivery } from '../../jobs/kinds';
import { Validation, recordNotFound } from '../../errors';
import { now } from '../../lib/time';
import { checkHookUrl } from './hook-url';
import { HOOK_FLAG_DEFAULTS, flagColumns, type HookFlag } from './flags';
import { TEST_EVENT } from './system-events';

export type Hook = Selectable<HooksTable>;

/** System hooks: URLs, registered by an administrator, that receive every system event. */
export class SystemHooksService {
  constructor(private readonly ctx: ServiceContext) {}

  list(): Promise<Hook[]> {
    return this.ctx.db.selectFrom('hooks').selectAll().where('project_id', 'is', null).orderBy('id').execute();
  }

  /** A new system hook; `flags` and `token` as v4 lets them be chosen (v3 gives the URL only). */
  async create(url: string, options: { flags?: Partial<Record<HookFlag, boolean>>; token?: string } = {}): Promise<Hook> {
    const trimmed = url.trim();
    const validation = new Validation();
    checkHookUrl(validation, 'url', trimmed);
    validation.throwIfInvalid();
    const time = now();
    return this.ctx.db
      .insertInto('hooks')
      .values({
        project_id: null,
        url: trimmed,
        token: options.token || null,
        // GitLab's column defaults; of these only `push_events` and `tag_push_events` choose what a system hook receives.
        ...flagColumns({ ...HOOK_FLAG_DEFAULTS, ...options.flags }),
        created_at: time,
        updated_at: time,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * Changes a system hook's URL, token and flags, validated as a new one; `404 Not found` when there
   * is none. The API has no call for it (GitLab's v3 and v4 have no `PUT /hooks/:id`): the admin page's.
   */
  async update(id: number, url: string, options: { flags: Partial<Record<HookFlag, boolean>>; token?: string }): Promise<Hook> {
    const trimmed = url.trim();
    const validation = new Validation();
    checkHookUrl(validation, 'url', trimmed);
    validation.throwIfInvalid();
    const hook = await this.ctx.db
      .updateTable('hooks')
      .set({ url: trimmed, token: options.token || null, ...flagColumns(options.flags), updated_at: now() })
      .where('id', '=', id)
      .where('project_id', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!hook) throw recordNotFound();
    return hook;
  }

  /** Sends GitLab's sample event to the hook, in the background, and answers it. */
  async test(id: number): Promise<typeof TEST_EVENT> {
    const hook = await this.find(id);
    if (!hook) throw recordNotFound();
    const delivery: HookDelivery = { hookId: hook.id, event: 'System Hook', payload: TEST_EVENT, test: true };
    await this.ctx.jobs.enqueue('hook.deliver', delivery);
    return TEST_EVENT;
  }

  /** Deletes a hook; undefined when there is none. Its pending deliveries are dropped when they come due. */
  async delete(id: number): Promise<Hook | undefined> {
    return this.ctx.db.deleteFrom('hooks').where('id', '=', id).where('project_id', 'is', null).returningAll().executeTakeFirst();
  }

  /** One system hook, for its page; `404 Not found` when there is none. */
  async get(id: number): Promise<Hook> {
    const hook = await this.find(id);
    if (!hook) throw recordNotFound();
    return hook;
  }

  private find(id: number): Promise<Hook | undefined> {
    return this.ctx.db.selectFrom('hooks').selectAll().where('id', '=', id).where('project_id', 'is', null).executeTakeFirst();
  }
}
