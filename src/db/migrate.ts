import { Migrator, sql, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import { SQLITE_BUSY_TIMEOUT_MS, type DbHandle, type SchemaFreeDb } from './index';
import * as foundation from './migrations/0001_foundation';
import * as projects from './migrations/0002_projects';
import * as repositories from './migrations/0003_repositories';
import * as releases from './migrations/0004_releases';
import * as ci from './migrations/0005_ci';
import * as ciDeploymentsTriggers from './migrations/0006_ci_deployments_triggers';
import * as collaboration from './migrations/0007_collaboration';
import * as mergeRequests from './migrations/0008_merge_requests';
import * as deployKeys from './migrations/0009_deploy_keys';
import * as lfs from './migrations/0010_lfs';
import * as refsVersion from './migrations/0011_refs_version';
import * as accessTokens from './migrations/0012_access_tokens';
import * as triggerDescription from './migrations/0013_trigger_description';
import * as runnerV4 from './migrations/0014_runner_v4';
import * as notifications from './migrations/0015_notifications';
import * as issuableClosersTime from './migrations/0016_issuable_closers_time';
import * as protectedBranchNoOne from './migrations/0017_protected_branch_no_one';
import * as junitReports from './migrations/0018_junit_reports';
import * as pipelineSource from './migrations/0019_pipeline_source';
import * as diffNotes from './migrations/0020_diff_notes';
import * as diffNoteLookup from './migrations/0021_diff_note_lookup';
import * as webHookLogs from './migrations/0022_web_hook_logs';

/** Migrations are listed here, in order, so that they ship inside the program. */
const migrations: Record<string, (handle: DbHandle) => Migration> = {
  '0001_foundation': foundation.migration,
  '0002_projects': projects.migration,
  '0003_repositories': repositories.migration,
  '0004_releases': releases.migration,
  '0005_ci': ci.migration,
  '0006_ci_deployments_triggers': ciDeploymentsTriggers.migration,
  '0007_collaboration': collaboration.migration,
  '0008_merge_requests': mergeRequests.migration,
  '0009_deploy_keys': deployKeys.migration,
  '0010_lfs': lfs.migration,
  '0011_refs_version': refsVersion.migration,
  '0012_access_tokens': accessTokens.migration,
  '0013_trigger_description': triggerDescription.migration,
  '0014_runner_v4': runnerV4.migration,
  '0015_notifications': notifications.migration,
  '0016_issuable_closers_time': issuableClosersTime.migration,
  '0017_protected_branch_no_one': protectedBranchNoOne.migration,
  '0018_junit_reports': junitReports.migration,
  '0019_pipeline_source': pipelineSource.migration,
  '0020_diff_notes': diffNotes.migration,
  '0021_diff_note_lookup': diffNoteLookup.migration,
  '0022_web_hook_logs': webHookLogs.migration,
};

/** The names of the migrations this program brings, in order. */
export const knownMigrations = (): string[] => Object.keys(migrations);

function migrator(handle: DbHandle, db: SchemaFreeDb = handle.db): Migrator {
  const provider: MigrationProvider = {
    async getMigrations() {
      return Object.fromEntries(Object.entries(migrations).map(([name, make]) => [name, make(handle)]));
    },
  };
  return new Migrator({ db, provider });
}

/**
 * Which of the migrations this program knows the database has run, without changing it: `forge
 * admin` refuses an empty database (no instance) or one not yet migrated; `forge admin check` says so.
 */
export async function migrationStatus(handle: DbHandle): Promise<{ executed: string[]; pending: string[] }> {
  const all = await migrator(handle).getMigrations();
  return {
    executed: all.filter((migration) => migration.executedAt !== undefined).map((migration) => migration.name),
    pending: all.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name),
  };
}

export async function migrateToLatest(handle: DbHandle): Promise<void> {
  await migrateUnderLock(handle, (m) => m.migrateToLatest());
}

/** Up to `name` and no further (`forge restore` loads a backup into the schema it was taken from; the upgrade tests). */
export async function migrateTo(handle: DbHandle, name: string): Promise<void> {
  if (!(name in migrations)) throw new Error(`no migration ${name} in this version of Forge`);
  await migrateUnderLock(handle, (m) => m.migrateTo(name));
}

/**
 * Runs the migrator so that processes starting together on one database migrate it once. On
 * PostgreSQL Kysely's migrator already does: it takes a session-level advisory lock, reads what
 * ran under it and migrates in one transaction. On SQLite it takes no lock and runs each migration
 * outside any transaction, so two processes would both run a migration, and a failure would leave
 * half of one: here the whole run is one `BEGIN IMMEDIATE` transaction (SQLite's write lock, waited
 * for across processes), committed only when every migration succeeded.
 */
async function migrateUnderLock(handle: DbHandle, run: (migrator: Migrator) => Promise<MigrationResultSet>): Promise<void> {
  if (handle.dialect === 'postgres') return check(await run(migrator(handle)));
  await handle.db.connection().execute(async (connection) => {
    // The write lock is waited for as long as another process migrates; other statements keep Forge's 5 s.
    await sql`pragma busy_timeout = ${sql.lit(MIGRATION_LOCK_WAIT_MS)}`.execute(connection);
    try {
      await sql`begin immediate`.execute(connection);
    } finally {
      await sql`pragma busy_timeout = ${sql.lit(SQLITE_BUSY_TIMEOUT_MS)}`.execute(connection);
    }
    let result: MigrationResultSet;
    try {
      result = await run(migrator(handle, connection));
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
    await sql`${sql.raw(result.error ? 'rollback' : 'commit')}`.execute(connection);
    check(result);
  });
}

const MIGRATION_LOCK_WAIT_MS = 10 * 60 * 1000;

function check({ error, results }: MigrationResultSet): void {
  const failed = results?.find((result) => result.status === 'Error');
  // Before any migration ran (the database unreachable, say), the error itself: its code names the cause.
  if (error && !failed) throw error;
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}
