import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { DbHandle } from './index';
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
};

function migrator(handle: DbHandle): Migrator {
  const provider: MigrationProvider = {
    async getMigrations() {
      return Object.fromEntries(Object.entries(migrations).map(([name, make]) => [name, make(handle)]));
    },
  };
  return new Migrator({ db: handle.db, provider });
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
  const { error, results } = await migrator(handle).migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  // Before any migration ran (the database unreachable, say), the error itself: its code names the cause.
  if (error && !failed) throw error;
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}
