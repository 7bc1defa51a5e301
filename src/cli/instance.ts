import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, type Config } from '../config';
import { openDatabase, type DbHandle } from '../db/index';
import { migrationStatus } from '../db/migrate';
import type { Services } from '../services/index';
import type { Logger } from '../lib/logger';
import { CommandError } from './command';
import { databaseFailureLine, describeDatabase } from './start-errors';

/*
 * The instance an admin command acts on: the one the server's own settings (DATA_DIR,
 * DATABASE_URL) name, said on stderr. An admin command never creates one: run without the
 * server's settings, it would otherwise make a new ./data and act on that.
 */

export interface Instance {
  config: Config;
  database: DbHandle;
  services: Services;
  close(): Promise<void>;
}

/** The files of an instance in DATA_DIR (`forge admin check` reads them without opening anything). */
export const secretKeyFile = (config: Config) => path.join(config.dataDir, 'secret.key');
export const sqliteFile = (config: Config) => path.join(config.dataDir, 'forge.db');

/** `<prefix>: instance DATA_DIR=… with SQLite at …`, on stderr: stdout keeps only the answer (a token, say). */
export function announceInstance(prefix: string, config: Config): void {
  process.stderr.write(`${prefix}: instance DATA_DIR=${config.dataDir}, database ${describeDatabase(config)}\n`);
}

const NOT_AN_INSTANCE = 'set DATA_DIR (and DATABASE_URL) as the server has them; `forge serve` creates an instance, admin commands do not';

/** Opens the existing, migrated instance the settings name with its services, or refuses. */
export async function openInstance(prefix: string): Promise<Instance> {
  const config = loadConfig();
  const database = await openInstanceDatabase(prefix, config);
  // Loaded on demand, as `forge serve` loads the app: `forge --help` and `forge runner` need none of it.
  const [{ serviceContext }, { createServices }] = await Promise.all([import('../app'), import('../services/index')]);
  const ctx = serviceContext(config, database, stderrLogger);
  const services = createServices(ctx);
  return {
    config,
    database,
    services,
    close: async () => {
      await ctx.git.close();
      await database.db.destroy();
    },
  };
}

/**
 * The database of the existing instance the settings name, or a refusal: none there, not
 * migrated yet (unless `migrated: false`: `forge backup` saves a database as it is, an upgrade's
 * first step).
 */
export async function openInstanceDatabase(prefix: string, config: Config, options: { migrated?: boolean } = {}): Promise<DbHandle> {
  announceInstance(prefix, config);
  if (!fs.existsSync(secretKeyFile(config)))
    throw new CommandError(`no Forge instance: ${secretKeyFile(config)} does not exist: ${NOT_AN_INSTANCE}`);
  if (!config.databaseUrl && !fs.existsSync(sqliteFile(config)))
    throw new CommandError(`no Forge instance: ${sqliteFile(config)} does not exist: ${NOT_AN_INSTANCE}`);
  const database = openDatabase(config);
  try {
    const { executed, pending } = await migrationStatus(database).catch((error) => {
      throw new CommandError(databaseFailureLine(error, config) ?? `cannot read the database: ${(error as Error).message}`);
    });
    if (executed.length === 0)
      throw new CommandError(`no Forge instance: the database (${describeDatabase(config)}) is empty: ${NOT_AN_INSTANCE}`);
    if (pending.length > 0 && options.migrated !== false) {
      throw new CommandError(
        `the database needs ${pending.length} migration(s) this version of Forge brings: run \`forge migrate\` or start the server first`,
      );
    }
  } catch (error) {
    await database.db.destroy();
    throw error;
  }
  return database;
}

/** Runs `work` on the instance, closing it afterwards whatever happens. */
export async function withInstance<T>(prefix: string, work: (instance: Instance) => Promise<T>): Promise<T> {
  const instance = await openInstance(prefix);
  try {
    return await work(instance);
  } finally {
    await instance.close();
  }
}

/** Services log what goes wrong; a command shows warnings and errors, not their routine lines. */
const quiet = () => {};
const toStderr = (first: object | string, message?: string) => {
  const fields = typeof first === 'string' ? undefined : first;
  process.stderr.write(`${typeof first === 'string' ? first : (message ?? '')}${fields ? ` ${JSON.stringify(fields)}` : ''}\n`);
};
const stderrLogger: Logger = { debug: quiet, info: quiet, warn: toStderr, error: toStderr };
