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
  /** Given only to builds of protected branches and tags. */
  protected: boolean;
  /** GitLab 11.10's masked variable: its value is of `MASKABLE` (traces are not masked by Forge). */
  masked: boolean;
}

/** What a caller gives: the flags are false unless given. */
export type VariableInput = Pick<Variable, 'key' | 'value'> & Partial<Pick<Variable, 'protected' | 'masked'>>;

/** What an update changes: the value, and each flag given. */
export type VariableChanges = { value: string } & Partial<Pick<Variable, 'protected' | 'masked'>>;

/** GitLab 11.10's `Ci::Maskable::REGEX`: a value a trace could hide, eight characters at least of a plain alphabet. */
const MASKABLE = /^[a-zA-Z0-9_+=/@:-]{8,}$/;

type StoredVariable = { key: string; value: string; protected: number; masked: number };
const COLUMNS = ['key', 'value', 'protected', 'masked'] as const;
const flag = (on: boolean | undefined) => (on ? 1 : 0);

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
        .select(COLUMNS)
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
      .select(COLUMNS)
      .where('project_id', '=', projectId)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row) throw notFound('Variable');
    return this.open(row);
  }

  async create(projectId: number, variable: VariableInput): Promise<Variable> {
    await this.validate(projectId, variable.key, variable.masked === true ? variable.value : undefined);
    const time = now();
    try {
      await this.db
        .insertInto('ci_variables')
        .values({
          project_id: projectId,
          key: variable.key,
          value: this.ctx.secrets.seal(variable.value),
          protected: flag(variable.protected),
          masked: flag(variable.masked),
          created_at: time,
          updated_at: time,
        })
        .execute();
    } catch (error) {
      // Another request stored the same key between the check and the insert.
      if (isUniqueViolation(error)) throw validationFailed({ key: [TAKEN] });
      throw error;
    }
    return { key: variable.key, value: variable.value, protected: variable.protected === true, masked: variable.masked === true };
  }

  /** The value and the flags given change; the key names the variable. A masked variable's new value must be maskable. */
  async update(projectId: number, key: string, changes: VariableChanges): Promise<Variable> {
    const current = await this.find(projectId, key);
    const masked = changes.masked ?? current.masked;
    if (masked) checkMaskable(changes.value);
    const updated = await this.db
      .updateTable('ci_variables')
      .set({
        value: this.ctx.secrets.seal(changes.value),
        ...(changes.protected === undefined ? {} : { protected: flag(changes.protected) }),
        ...(changes.masked === undefined ? {} : { masked: flag(changes.masked) }),
        updated_at: now(),
      })
      .where('project_id', '=', projectId)
      .where('key', '=', key)
      .returning(COLUMNS)
      .executeTakeFirst();
    if (!updated) throw notFound('Variable');
    return this.open(updated);
  }

  /** Answers the removed variable. */
  async delete(projectId: number, key: string): Promise<Variable> {
    const removed = await this.db
      .deleteFrom('ci_variables')
      .where('project_id', '=', projectId)
      .where('key', '=', key)
      .returning(COLUMNS)
      .executeTakeFirst();
    if (!removed) throw notFound('Variable');
    return this.open(removed);
  }

  /** GitLab's `Ci::Variable` validations, in its order: uniqueness, length, format; then a masked value's (11.10). */
  private async validate(projectId: number, key: string, maskedValue?: string): Promise<void> {
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
    if (maskedValue !== undefined && !MASKABLE.test(maskedValue)) validation.add('value', MASKED_INVALID);
    validation.throwIfInvalid();
  }

  private open(row: StoredVariable): Variable {
    return { key: row.key, value: this.ctx.secrets.unseal(row.value), protected: row.protected === 1, masked: row.masked === 1 };
  }
}

/** GitLab 11.10's words for a masked variable whose value could not be hidden in a trace. */
const MASKED_INVALID = 'is invalid';

function checkMaskable(value: string): void {
  if (!MASKABLE.test(value)) throw validationFailed({ value: [MASKED_INVALID] });
}
