import type { Selectable } from 'kysely';
import type { ApplicationSettingsTable } from '../../db/schema';
import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import { now } from '../../lib/time';
import { randomToken } from '../../lib/secrets';
import { DEFAULT_SETTINGS, applyChanges, checkSettings, type SettingChanges, type SettingValues } from './rules';
import { inTransaction } from '../../db/transaction';

export type { SettingChanges, SettingValues } from './rules';

/** The settings as the rest of Forge reads them. */
export interface ApplicationSettings extends SettingValues {
  id: number;
  created_at: string;
  updated_at: string;
  /** The shared runners' registration token. */
  runners_registration_token: string;
}

/** `application_settings.data`: the values, and the registration token sealed (ARCHITECTURE: tokens). */
type StoredData = Partial<SettingValues> & { runners_registration_token_sealed?: string };

type Row = Selectable<ApplicationSettingsTable>;

// One row, always id 1, so that concurrent first reads agree on it.
const ROW_ID = 1;

/** Instance-wide settings: one row, created from GitLab's defaults on first read. */
export class SettingsService {
  constructor(private readonly ctx: ServiceContext) {}

  private get db(): Db {
    return this.ctx.db;
  }

  /** The current settings; creates the row and the registration token when missing. */
  async get(): Promise<ApplicationSettings> {
    let row = await this.row();
    if (!row) {
      const time = now();
      await this.db
        .insertInto('application_settings')
        .values({ id: ROW_ID, data: JSON.stringify(this.fresh()), created_at: time, updated_at: time })
        .onConflict((conflict) => conflict.column('id').doNothing())
        .execute();
      row = (await this.row())!;
    }
    if (parse(row).runners_registration_token_sealed === undefined) {
      // Compare-and-set: of two first readers, one token wins and both answer it.
      const data = JSON.stringify({ ...parse(row), runners_registration_token_sealed: this.sealedNewToken() });
      await this.db.updateTable('application_settings').set({ data }).where('id', '=', row.id).where('data', '=', row.data).execute();
      row = (await this.row())!;
    }
    return this.present(row);
  }

  /** Applies a PUT; every setting is checked together, as one record. */
  async update(changes: SettingChanges): Promise<ApplicationSettings> {
    const { id } = await this.get();
    return inTransaction(this.db, async (trx) => {
      let query = trx.selectFrom('application_settings').selectAll().where('id', '=', id);
      if (this.ctx.dialect === 'postgres') query = query.forUpdate();
      const row = await query.executeTakeFirstOrThrow();
      const stored = parse(row);
      const values = applyChanges(valuesOf(stored), changes);
      checkSettings(values);
      const token = changes.runners_registration_token?.trim();
      const data: StoredData = {
        ...stored,
        ...values,
        ...(token ? { runners_registration_token_sealed: this.ctx.secrets.seal(token) } : {}),
      };
      const updated = await trx
        .updateTable('application_settings')
        .set({ data: JSON.stringify(data), updated_at: now() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return this.present(updated);
    });
  }

  /** A new shared runners registration token (8.12's `reset_runners_token`); runners registered with the old one keep working. */
  async resetRunnersToken(): Promise<ApplicationSettings> {
    return this.update({ runners_registration_token: randomToken(20) });
  }

  private row(): Promise<Row | undefined> {
    return this.db.selectFrom('application_settings').selectAll().orderBy('id').executeTakeFirst();
  }

  private fresh(): StoredData {
    return { ...DEFAULT_SETTINGS, runners_registration_token_sealed: this.sealedNewToken() };
  }

  private sealedNewToken(): string {
    return this.ctx.secrets.seal(randomToken(20));
  }

  private present(row: Row): ApplicationSettings {
    const stored = parse(row);
    return {
      id: row.id,
      created_at: row.created_at,
      updated_at: row.updated_at,
      ...valuesOf(stored),
      runners_registration_token: this.ctx.secrets.unseal(stored.runners_registration_token_sealed!),
    };
  }
}

const parse = (row: Row): StoredData => JSON.parse(row.data) as StoredData;

/** Stored values over the defaults, so that a setting added later reads its default. */
function valuesOf(stored: StoredData): SettingValues {
  const values = { ...DEFAULT_SETTINGS };
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof SettingValues)[]) {
    if (stored[key] !== undefined) (values as Record<string, unknown>)[key] = stored[key];
  }
  return values;
}
