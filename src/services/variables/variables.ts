import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import { Validation, notFound, validationFailed } from '../../errors';
import { now } from '../../lib/time';
import { LIMITS } from '../../lib/limits';
import { isUniqueViolation } from '../../db/errors';

/** A build variable as the API shows it: the value in clear. */
export interface Variable {
  key: string;
  value: string;
}

const KEY_FORMAT = /^[A-Za-z0-9_]+$/;
const TAKEN = 'has already been taken';

/**
 * Per-project build variables, handed to the project's builds. Values are sealed
 * with the server's key (GitLab encrypted them too): a copy of the database alone
 * does not reveal them.
 */
export class VariablesService {
  constructor(private readonly ctx: ServiceContext) {}

  private get db(): Db {
    return this.ctx.db;
  }

  /** Oldest first, as GitLab listed them (no order given, so insertion order). */
  async list(projectId: number, page: { offset: number; limit: number }): Promise<{ variables: Variable[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('ci_variables')
        .select(['key', 'value'])
        .where('project_id', '=', projectId)
        .orderBy('id')
        .offset(page.offset)
        .limit(page.limit)
        .execute(),
      this.db
        .selectFrom('ci_variables')
        .select((eb) => eb.fn.countAll<number | string>().as('total'))
        .where('project_id', '=', projectId)
        .executeTakeFirstOrThrow(),
    ]);
    return { variables: rows.map((row) => this.open(row)), total: Number(count.total) };
  }

  /** `404 Variable Not Found` when the project has no variable by that key (case matters). */
  async find(projectId: number, key: string): Promise<Variable> {
    const row = await this.db
      .selectFrom('ci_variables')
      .select(['key', 'value'])
      .where('project_id', '=', projectId)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row) throw notFound('Variable');
    return this.open(row);
  }

  async create(projectId: number, variable: Variable): Promise<Variable> {
    await this.validate(projectId, variable.key);
    const time = now();
    try {
      await this.db
        .insertInto('ci_variables')
        .values({
          project_id: projectId,
          key: variable.key,
          value: this.ctx.secrets.seal(variable.value),
          created_at: time,
          updated_at: time,
        })
        .execute();
    } catch (error) {
      // Another request stored the same key between the check and the insert.
      if (isUniqueViolation(error)) throw validationFailed({ key: [TAKEN] });
      throw error;
    }
    return { key: variable.key, value: variable.value };
  }

  /** Only the value changes; the key names the variable. */
  async update(projectId: number, key: string, value: string): Promise<Variable> {
    const updated = await this.db
      .updateTable('ci_variables')
      .set({ value: this.ctx.secrets.seal(value), updated_at: now() })
      .where('project_id', '=', projectId)
      .where('key', '=', key)
      .returning('key')
      .executeTakeFirst();
    if (!updated) throw notFound('Variable');
    return { key, value };
  }

  /** Answers the removed variable. */
  async delete(projectId: number, key: string): Promise<Variable> {
    const removed = await this.db
      .deleteFrom('ci_variables')
      .where('project_id', '=', projectId)
      .where('key', '=', key)
      .returning(['key', 'value'])
      .executeTakeFirst();
    if (!removed) throw notFound('Variable');
    return this.open(removed);
  }

  /** GitLab 8.12's `Ci::Variable` validations, in its order: uniqueness, length, format. */
  private async validate(projectId: number, key: string): Promise<void> {
    const validation = new Validation();
    const existing = await this.db
      .selectFrom('ci_variables')
      .select('id')
      .where('project_id', '=', projectId)
      .where('key', '=', key)
      .executeTakeFirst();
    if (existing) validation.add('key', TAKEN);
    if ([...key].length > LIMITS.name) validation.add('key', `is too long (maximum is ${LIMITS.name} characters)`);
    if (!KEY_FORMAT.test(key)) validation.add('key', "can contain only letters, digits and '_'.");
    validation.throwIfInvalid();
  }

  private open(row: Variable): Variable {
    return { key: row.key, value: this.ctx.secrets.unseal(row.value) };
  }
}
