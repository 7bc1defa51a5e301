import { loadConfig } from '../config';
import { openDatabase } from '../db/index';
import { migrateToLatest } from '../db/migrate';
import { CommandError, type Command } from './command';
import { announceInstance } from './instance';
import { databaseFailureLine } from './start-errors';

export const migrate: Command = {
  name: 'migrate',
  summary: 'bring the database up to this version of Forge (the server does it at start too)',
  help: `usage: forge migrate

Runs the database migrations this version of Forge brings, then exits. \`forge serve\` runs them
at every start; this runs them alone, before an upgrade's first start, say.`,
  async run() {
    const config = loadConfig();
    announceInstance('forge migrate', config);
    const database = openDatabase(config);
    try {
      await migrateToLatest(database).catch((error) => {
        const line = databaseFailureLine(error, config);
        throw line === undefined ? error : new CommandError(line);
      });
    } finally {
      await database.db.destroy();
    }
    process.stdout.write('database migrated\n');
    return 0;
  },
};
