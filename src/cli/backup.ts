import path from 'node:path';
import { loadConfig } from '../config';
import { BackupError } from '../backup/format';
import { mebibytes, Progress } from '../backup/progress';
import { CommandError, type Command } from './command';
import { openInstanceDatabase } from './instance';
import { databaseFailureLine } from './start-errors';

export const backup: Command = {
  name: 'backup',
  summary: 'save the instance (database, repositories, files) to one archive, while it runs',
  help: `usage: forge backup [--to FILE]

Saves the instance the settings name (DATA_DIR, DATABASE_URL), while the server runs, to one tar
archive: the database as of one moment (as a SQLite file, whichever database it is: a backup of
SQLite restores onto PostgreSQL and back), every repository with its branches and tags as of that
same moment, and DATA_DIR's files (build traces and artifacts, LFS objects, uploads).

The secret key (and the SSH host key) are NOT in the archive: they go to FILE.secrets beside it,
readable by you only. Keep it apart from the archive, as safely as a password: a restore needs
both, and whoever has both has the instance's secrets.

Progress goes to stderr; the archive's size and SHA-256 are printed at the end.

Options:
  --to FILE   the archive to write (default forge-backup-<date>-<time>.tar here); it must not exist`,
  options: { to: { type: 'string' } },
  async run({ values }) {
    const config = loadConfig();
    const archive = path.resolve(typeof values.to === 'string' ? values.to : defaultName());
    const database = await openInstanceDatabase('forge backup', config, { migrated: false });
    const progress = new Progress('forge backup');
    try {
      const { createBackup } = await import('../backup/backup');
      const result = await createBackup({ dataDir: config.dataDir, database, archive, progress }).catch((error) => {
        if (error instanceof BackupError) throw new CommandError(error.message);
        const line = databaseFailureLine(error, config);
        throw line === undefined ? error : new CommandError(line);
      });
      if (result.moved.length > 0) {
        progress.say(
          `the refs of ${result.moved.length} repositories kept moving while the snapshot was taken: they are saved as just after it (projects ${result.moved.join(', ')})`,
        );
      }
      progress.say(`the secret key is NOT in the archive: it is in ${result.secrets}; keep that file apart, and safe`);
      process.stdout.write(
        [
          `archive  ${result.archive}`,
          `size     ${result.size} bytes (${mebibytes(result.size)})`,
          `sha256   ${result.sha256}`,
          `secrets  ${result.secrets}`,
          `saved    ${result.rows} rows, ${result.repositories} repositories, ${result.files} files`,
          '',
        ].join('\n'),
      );
      return 0;
    } finally {
      await database.db.destroy();
    }
  },
};

function defaultName(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `forge-backup-${stamp}.tar`;
}
