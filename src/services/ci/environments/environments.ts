import type { Db } from '../../../db/index';
import type { ServiceContext } from '../../context';
import type { Project } from '../../projects/types';
import { Validation, recordNotFound, validationFailed } from '../../../errors';
import { isUniqueViolation } from '../../../db/errors';
import { now } from '../../../lib/time';
import { LIMITS } from '../../../lib/limits';
import { ENVIRONMENT_NAME, ENVIRONMENT_NAME_MESSAGE, ENVIRONMENT_URL_MAX, environmentType, isEnvironmentUrl } from './rules';
import type { EnvironmentRow } from '../types';

export interface EnvironmentFields {
  name: string;
  external_url: string | null;
}

const TAKEN = 'has already been taken';

/** GitLab's `nullify_external_url`: a blank URL is no URL. */
const urlOrNull = (url: string | null | undefined): string | null => (url === undefined || url === null || url.trim() === '' ? null : url);

/**
 * GitLab 8.12's Environment validations, in its order (presence, uniqueness in the project, length,
 * format; then the URL's uniqueness, length and scheme). `exceptId` is the environment being updated.
 */
async function validate(db: Db, projectId: number, fields: EnvironmentFields, exceptId?: number): Promise<Validation> {
  const validation = new Validation();
  const others = () => {
    const query = db.selectFrom('environments').select('id').where('project_id', '=', projectId);
    return exceptId === undefined ? query : query.where('id', '<>', exceptId);
  };
  const { name, external_url: url } = fields;
  if (name.trim() === '') validation.add('name', "can't be blank");
  if (await others().where('name', '=', name).executeTakeFirst()) validation.add('name', TAKEN);
  if ([...name].length > LIMITS.name) validation.add('name', `is too long (maximum is ${LIMITS.name} characters)`);
  if (!ENVIRONMENT_NAME.test(name)) validation.add('name', ENVIRONMENT_NAME_MESSAGE);
  if (url !== null) {
    if (await others().where('external_url', '=', url).executeTakeFirst()) validation.add('external_url', TAKEN);
    if ([...url].length > ENVIRONMENT_URL_MAX) validation.add('external_url', `is too long (maximum is ${ENVIRONMENT_URL_MAX} characters)`);
    if (!isEnvironmentUrl(url)) validation.add('external_url', 'must be a valid URL');
  }
  return validation;
}

/**
 * Inserts a valid environment; undefined when a concurrent one of that name was saved first. The
 * unique index decides, and `DO NOTHING` keeps a transaction around it alive on PostgreSQL.
 */
async function insert(db: Db, projectId: number, fields: EnvironmentFields): Promise<EnvironmentRow | undefined> {
  const time = now();
  return db
    .insertInto('environments')
    .values({
      project_id: projectId,
      name: fields.name,
      external_url: fields.external_url,
      environment_type: environmentType(fields.name),
      created_at: time,
      updated_at: time,
    })
    .onConflict((oc) => oc.columns(['project_id', 'name']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

const byName = (db: Db, projectId: number, name: string) =>
  db.selectFrom('environments').selectAll().where('project_id', '=', projectId).where('name', '=', name).executeTakeFirst();

/**
 * The project's environment of that name, made (with its URL) when there is none: GitLab 8.12's
 * `find_or_create_by` at a deployment. The URL is only set at creation. Undefined when a new one
 * would be invalid: then there is no deployment, and nothing is raised.
 */
export async function findOrCreateEnvironment(
  db: Db,
  projectId: number,
  name: string,
  url: string | null,
): Promise<EnvironmentRow | undefined> {
  const existing = await byName(db, projectId, name);
  if (existing) return existing;
  const fields = { name, external_url: urlOrNull(url) };
  if (!(await validate(db, projectId, fields)).ok) return undefined;
  return (await insert(db, projectId, fields)) ?? byName(db, projectId, name);
}

/** A project's environments, as the API manages them: developers create them, masters change and remove them. */
export class EnvironmentsService {
  constructor(private readonly ctx: ServiceContext) {}

  /** Oldest first (8.12 gave no order: the database's, which is insertion order). */
  async list(project: Project, page: { offset: number; limit: number }): Promise<{ environments: EnvironmentRow[]; total: number }> {
    const query = this.ctx.db.selectFrom('environments').where('project_id', '=', project.id);
    const [environments, count] = await Promise.all([
      query.selectAll().orderBy('id').offset(page.offset).limit(page.limit).execute(),
      query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { environments, total: Number(count.total) };
  }

  async create(project: Project, given: { name: string; external_url?: string }): Promise<EnvironmentRow> {
    const fields = { name: given.name, external_url: urlOrNull(given.external_url) };
    (await validate(this.ctx.db, project.id, fields)).throwIfInvalid();
    const created = await insert(this.ctx.db, project.id, fields);
    // Another request took the name between the check and the insert.
    if (!created) throw validationFailed({ name: [TAKEN] });
    return created;
  }

  /** Only the fields given change; the whole record is validated again, as Rails did. */
  async update(project: Project, id: number, given: { name?: string; external_url?: string }): Promise<EnvironmentRow> {
    const environment = await this.find(project, id);
    const fields = {
      name: given.name ?? environment.name,
      external_url: given.external_url === undefined ? environment.external_url : urlOrNull(given.external_url),
    };
    (await validate(this.ctx.db, project.id, fields, id)).throwIfInvalid();
    try {
      const updated = await this.ctx.db
        .updateTable('environments')
        .set({ ...fields, environment_type: environmentType(fields.name), updated_at: now() })
        .where('id', '=', id)
        .where('project_id', '=', project.id)
        .returningAll()
        .executeTakeFirst();
      if (!updated) throw recordNotFound();
      return updated;
    } catch (error) {
      if (isUniqueViolation(error)) throw validationFailed({ name: [TAKEN] });
      throw error;
    }
  }

  /** Answers the removed environment; its deployments go with it (GitLab's `dependent: :destroy`, here the foreign key's cascade). */
  async delete(project: Project, id: number): Promise<EnvironmentRow> {
    const removed = await this.ctx.db
      .deleteFrom('environments')
      .where('id', '=', id)
      .where('project_id', '=', project.id)
      .returningAll()
      .executeTakeFirst();
    if (!removed) throw recordNotFound();
    return removed;
  }

  /**
   * GitLab 9's stop: the environment is `stopped` until its next deployment. Forge runs no
   * `on_stop` job (it reads no `environment:on_stop`), so stopping is the state alone.
   */
  async stop(project: Project, id: number): Promise<EnvironmentRow> {
    const stopped = await this.ctx.db
      .updateTable('environments')
      .set({ state: 'stopped', updated_at: now() })
      .where('id', '=', id)
      .where('project_id', '=', project.id)
      .returningAll()
      .executeTakeFirst();
    if (!stopped) throw recordNotFound();
    return stopped;
  }

  /** One of the project's environments, or `404 Not found`. */
  async find(project: Project, id: number): Promise<EnvironmentRow> {
    const environment = await this.ctx.db
      .selectFrom('environments')
      .selectAll()
      .where('id', '=', id)
      .where('project_id', '=', project.id)
      .executeTakeFirst();
    if (!environment) throw recordNotFound();
    return environment;
  }
}
