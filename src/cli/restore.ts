import path from 'node:path';
import { loadConfig } from '../config';
import { openDatabase } from '../db/index';
import { BackupError, secretsFileOf } from '../backup/format';
import { Progress } from '../backup/progress';
import { CommandError, type Command } from './command';
import { announceInstance } from './instance';
import { databaseFailureLine, describeDatabase } from './start-errors';

export const restore: Command = {
  name: 'restore',
  summary: 'restore an archive of forge backup into an empty DATA_DIR and database',
  help: `usage: forge restore FILE [--secrets SECRETS]

Restores the archive FILE, made by \`forge backup\`, into the instance the settings name
(DATA_DIR, DATABASE_URL): both must be empty (a new directory, a new database). The archive's
database may be of the other kind: a backup of SQLite restores onto PostgreSQL, which is how an
instance moves to PostgreSQL. The database is then migrated to this version of Forge, so a
backup of an older version restores into a newer one. Start the server with the same settings
afterwards. A failed restore leaves part of the backup behind: empty both before trying again.

Options:
  --secrets SECRETS   the secrets file the backup wrote beside the archive (default FILE.secrets)`,
  options: { secrets: { type: 'string' } },
  positionals: { min: 1, max: 1 },
  async run({ values, positionals }) {
    const config = loadConfig();
    announceInstance('forge restore', config);
    const archive = path.resolve(positionals[0]);
    const secrets = path.resolve(typeof values.secrets === 'string' ? values.secrets : secretsFileOf(archive));
    const { restoreBackup } = await import('../backup/restore');
    const result = await restoreBackup({
      dataDir: config.dataDir,
      openDatabase: () => openDatabase(config),
      describeDatabase: describeDatabase(config),
      archive,
      secrets,
      progress: new Progress('forge restore'),
    }).catch((error) => {
      if (error instanceof BackupError) throw new CommandError(error.message);
      const line = databaseFailureLine(error, config);
      throw line === undefined ? error : new CommandError(line);
    });
    process.stdout.write(
      `restored ${result.rows} rows, ${result.repositories} repositories, ${result.files} files` +
        `${result.migrations.applied > 0 ? `; ${result.migrations.applied} migration(s) applied since the backup` : ''}\n`,
    );
    return 0;
  },
};
