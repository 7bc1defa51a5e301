import { openDatabase } from '../../src/db/index';
import { migrateToLatest } from '../../src/db/migrate';

/*
 * A process that migrates the database DATA_DIR and DATABASE_URL name at the moment START_AT (ms
 * since the epoch), so that several started one after another migrate at once (test/cli/upgrade).
 */
const database = openDatabase({ dataDir: process.env.DATA_DIR!, databaseUrl: process.env.DATABASE_URL ?? '' });
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(process.env.START_AT) - Date.now())));
try {
  await migrateToLatest(database);
  process.stdout.write('migrated\n');
} finally {
  await database.db.destroy();
}
