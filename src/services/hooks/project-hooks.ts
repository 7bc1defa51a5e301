import type { Selectable } from 'kysely';
import type { HooksTable } from '../../db/schema';
import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import { Validation, grapeError, notFound, recordNotFound } from '../../errors';
import { now } from '../../lib/time';
import { checkHookUrl } from './hook-url';
import { HOOK_FLAGS, HOOK_FLAG_DEFAULTS, flagColumns, type HookFlag } from './flags';
import { recordIdOf } from '../../lib/record-id';

export type ProjectHook = Selectable<HooksTable> & { project_id: number };

export type ProjectHookAttributes = { url: string; token?: string } & Partial<Record<HookFlag, boolean>>;

/** GitLab 8.12 answered a rejected hook URL with this body, not with the field's validation message. */
const invalidUrl = () => grapeError(422, 'Invalid url given');

/**
 * Project hooks: URLs that receive the project's events, each chosen by a flag.
 * The token is write-only: stored, sent as `X-Gitlab-Token`, never shown.
 */
export class ProjectHooksService {
  constructor(private readonly ctx: ServiceContext) {}

  private get db(): Db {
    return this.ctx.db;
  }

  async list(projectId: number, page: { offset: number; limit: number }): Promise<{ hooks: ProjectHook[]; total: number }> {
    const [hooks, count] = await Promise.all([
      this.ofProject(projectId).selectAll().orderBy('id').offset(page.offset).limit(page.limit).execute(),
      this.ofProject(projectId)
        .select((eb) => eb.fn.countAll<number | string>().as('total'))
        .executeTakeFirstOrThrow(),
    ]);
    return { hooks: hooks as ProjectHook[], total: Number(count.total) };
  }

  /** `404 Not found` for an unknown hook and for another project's hook. */
  async find(projectId: number, hookId: string): Promise<ProjectHook> {
    const hook = await this.findOrUndefined(projectId, hookId);
    if (!hook) throw recordNotFound();
    return hook;
  }

  async create(projectId: number, attributes: ProjectHookAttributes): Promise<ProjectHook> {
    const url = this.checkedUrl(attributes.url);
    const flags = { ...HOOK_FLAG_DEFAULTS, ...pickFlags(attributes) };
    const time = now();
    const hook = await this.db
      .insertInto('hooks')
      .values({ project_id: projectId, url, token: attributes.token || null, ...flagColumns(flags), created_at: time, updated_at: time })
      .returningAll()
      .executeTakeFirstOrThrow();
    return hook as ProjectHook;
  }

  /** Flags not given keep their values; a given token replaces the stored one (an empty one removes it). */
  async update(projectId: number, hookId: string, attributes: ProjectHookAttributes): Promise<ProjectHook> {
    const hook = await this.find(projectId, hookId);
    const url = this.checkedUrl(attributes.url);
    const updated = await this.db
      .updateTable('hooks')
      .set({
        url,
        ...(attributes.token !== undefined ? { token: attributes.token || null } : {}),
        ...flagColumns(pickFlags(attributes)),
        updated_at: now(),
      })
      .where('id', '=', hook.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return updated as ProjectHook;
  }

  /** `404 Error deleting hook <id> Not Found` for an unknown hook and for another project's hook. */
  async delete(projectId: number, hookId: string): Promise<ProjectHook> {
    const id = recordIdOf(hookId);
    const removed =
      id === undefined
        ? undefined
        : await this.db.deleteFrom('hooks').where('id', '=', id).where('project_id', '=', projectId).returningAll().executeTakeFirst();
    if (!removed) throw notFound(`Error deleting hook ${hookId}`);
    return removed as ProjectHook;
  }

  private ofProject(projectId: number) {
    return this.db.selectFrom('hooks').where('project_id', '=', projectId);
  }

  private async findOrUndefined(projectId: number, hookId: string): Promise<ProjectHook | undefined> {
    const id = recordIdOf(hookId);
    if (id === undefined) return undefined;
    return (await this.ofProject(projectId).selectAll().where('id', '=', id).executeTakeFirst()) as ProjectHook | undefined;
  }

  /** GitLab strips the URL before checking it; only http(s) URLs with a host are kept. */
  private checkedUrl(url: string): string {
    const trimmed = url.trim();
    const validation = new Validation();
    checkHookUrl(validation, 'url', trimmed);
    if (!validation.ok) throw invalidUrl();
    return trimmed;
  }
}

function pickFlags(attributes: ProjectHookAttributes): Partial<Record<HookFlag, boolean>> {
  return Object.fromEntries(HOOK_FLAGS.filter((flag) => attributes[flag] !== undefined).map((flag) => [flag, attributes[flag]]));
}
