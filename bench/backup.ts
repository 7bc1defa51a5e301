import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PassThrough } from 'node:stream';
import { createBackup } from '../src/backup/backup';
import { restoreBackup } from '../src/backup/restore';
import { Progress } from '../src/backup/progress';
import { openDatabase } from '../src/db/index';
import { freshDatabaseUrl } from '../test/support/app';
import { databaseKind, startBenchApp } from './support/app';
import { seedCollaboration } from './support/seed-collaboration';
import { profiled } from './support/profile';
import { timeSpawn } from './support/spawn';
import { median, ratio, table } from './support/stats';
import { projectWithHistory } from './git';
import type { Benchmark, BenchOptions, TargetCheck } from './support/types';

/*
 * `forge backup` and `forge restore` beside `tar` of the same DATA_DIR: the git bench's repository
 * (20,000 commits; --quick 5,000) and 10,000 issues with 20,000 notes (--quick 2,000 and 4,000)
 * over 100 projects. The backup runs while the server runs (as an operator's would), through the
 * same function `forge backup` calls; the restore goes into an empty DATA_DIR and database of the
 * bench's kind. Rounds alternate tar and Forge; medians are compared. Target: within 2× of tar.
 *
 * Forge's archive is an uncompressed tar, so `tar -c` (not `tar -cz`) is its counterpart; but a
 * backup also works out the archive's SHA-256 and flushes it to disk before saying it is done,
 * which plain tar does not. A second line shows tar doing the same (`tar -c | tee | sha256sum`,
 * then `sync` of the file), to tell that cost apart from Forge's own.
 *
 * On PostgreSQL, DATA_DIR does not hold the database, so plain tar leaves the database out. The
 * target is judged there against PostgreSQL's own tools on the same server: `tar -c` of DATA_DIR
 * then `pg_dump -Fc -Z0` (custom format, uncompressed like Forge's archive) for a backup, and
 * `tar -x` then `pg_restore --single-transaction` into an empty database (made untimed, as Forge's
 * is) for a restore. The plain-tar lines stay in the table.
 */

const TARGET = 2;
const silent = () => new Progress('bench', new PassThrough().resume());
const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;
const mibPerSecond = (bytes: number, ms: number) => `${(bytes / 2 ** 20 / (ms / 1000)).toFixed(0)} MiB/s`;

async function run({ quick }: BenchOptions): Promise<TargetCheck[]> {
  const shape = quick ? { commits: 5_000, files: 2_000 } : { commits: 20_000, files: 5_000 };
  const issues = quick ? 2_000 : 10_000;
  const rounds = quick ? 2 : 3;
  const app = await startBenchApp();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-bench-backup-'));
  try {
    await projectWithHistory(app, shape);
    await seedCollaboration(app.database, app.ctx.secrets, { issues, notes: issues * 2 });
    const dataDir = app.config.dataDir;
    const postgres = app.config.databaseUrl !== '';
    const times = {
      toolsCreate: [] as number[],
      toolsExtract: [] as number[],
      tarCreate: [] as number[],
      tarSealed: [] as number[],
      backup: [] as number[],
      tarExtract: [] as number[],
      restore: [] as number[],
    };
    let archiveBytes = 0;
    let tarBytes = 0;
    for (let round = 0; round < rounds; round++) {
      const tarFile = path.join(scratch, 'data.tar');
      const toolsTar = path.join(scratch, 'tools.tar');
      const dump = path.join(scratch, 'database.pgdump');
      const tarCreate = async () => {
        fs.rmSync(tarFile, { force: true });
        times.tarCreate.push((await timeSpawn('tar', ['-cf', tarFile, '-C', dataDir, '.'])).ms);
        tarBytes = fs.statSync(tarFile).size;
        fs.rmSync(tarFile);
        const sealed = `tar -cf - -C "$1" . | tee "$2" | sha256sum > /dev/null && sync "$2"`;
        times.tarSealed.push((await timeSpawn('sh', ['-c', sealed, 'sh', dataDir, tarFile])).ms);
        if (postgres) {
          fs.rmSync(toolsTar, { force: true });
          fs.rmSync(dump, { force: true });
          const tools = `tar -cf "$2" -C "$1" . && pg_dump -Fc -Z0 -f "$3" -d "$4"`;
          times.toolsCreate.push((await timeSpawn('sh', ['-c', tools, 'sh', dataDir, toolsTar, dump, app.config.databaseUrl])).ms);
        }
      };
      const archive = path.join(scratch, 'forge.tar');
      const backup = async () => {
        fs.rmSync(archive, { force: true });
        fs.rmSync(`${archive}.secrets`, { force: true });
        const database = openDatabase({ dataDir, databaseUrl: app.config.databaseUrl });
        const started = performance.now();
        try {
          archiveBytes = (await profiled(`backup-${round}`, () => createBackup({ dataDir, database, archive, progress: silent() }))).size;
        } finally {
          await database.db.destroy();
        }
        times.backup.push(performance.now() - started);
      };
      // Round by round the order turns, so that neither always meets a warm or a cold cache.
      for (const step of round % 2 === 0 ? [tarCreate, backup] : [backup, tarCreate]) await step();

      const untarred = path.join(scratch, 'untarred');
      const tarExtract = async () => {
        fs.rmSync(untarred, { recursive: true, force: true });
        fs.mkdirSync(untarred);
        times.tarExtract.push((await timeSpawn('tar', ['-xf', tarFile, '-C', untarred])).ms);
        if (!postgres) return;
        fs.rmSync(untarred, { recursive: true, force: true });
        fs.mkdirSync(untarred);
        const empty = await freshDatabaseUrl(process.env.BENCH_DATABASE_URL ?? '', 'forge_bench_pg_restore');
        try {
          const tools = `tar -xf "$1" -C "$2" && pg_restore --single-transaction --no-owner --exit-on-error -d "$3" "$4"`;
          times.toolsExtract.push((await timeSpawn('sh', ['-c', tools, 'sh', toolsTar, untarred, empty.url, dump])).ms);
        } finally {
          await empty.drop();
        }
      };
      const restore = async () => {
        const target = path.join(scratch, 'restored');
        fs.rmSync(target, { recursive: true, force: true });
        const database = await freshDatabaseUrl(process.env.BENCH_DATABASE_URL ?? '', 'forge_bench_restore');
        const started = performance.now();
        try {
          await profiled(`restore-${round}`, () =>
            restoreBackup({
              dataDir: target,
              openDatabase: () => openDatabase({ dataDir: target, databaseUrl: database.url }),
              describeDatabase: databaseKind(),
              archive,
              secrets: `${archive}.secrets`,
              progress: silent(),
            }),
          );
          times.restore.push(performance.now() - started);
        } finally {
          await database.drop();
        }
      };
      for (const step of round % 2 === 0 ? [tarExtract, restore] : [restore, tarExtract]) await step();
    }
    const backupMs = median(times.backup);
    const restoreMs = median(times.restore);
    console.log(
      `${databaseKind()}; ${shape.commits} commits, ${issues} issues, ${issues * 2} notes; DATA_DIR as tar ${(tarBytes / 2 ** 20).toFixed(1)} MiB, ` +
        `backup archive ${(archiveBytes / 2 ** 20).toFixed(1)} MiB; median of ${rounds} rounds`,
    );
    console.log(
      table(
        ['step', 'Forge', 'counterpart', 'Forge/counterpart', 'Forge throughput'],
        [
          [
            'backup vs tar -c',
            seconds(backupMs),
            seconds(median(times.tarCreate)),
            ratio(backupMs / median(times.tarCreate)),
            mibPerSecond(archiveBytes, backupMs),
          ],
          [
            'backup vs tar -c + sha256sum + sync',
            seconds(backupMs),
            seconds(median(times.tarSealed)),
            ratio(backupMs / median(times.tarSealed)),
            mibPerSecond(archiveBytes, backupMs),
          ],
          ...(postgres
            ? [
                [
                  'backup vs tar -c + pg_dump',
                  seconds(backupMs),
                  seconds(median(times.toolsCreate)),
                  ratio(backupMs / median(times.toolsCreate)),
                  mibPerSecond(archiveBytes, backupMs),
                ],
              ]
            : []),
          [
            'restore vs tar -x',
            seconds(restoreMs),
            seconds(median(times.tarExtract)),
            ratio(restoreMs / median(times.tarExtract)),
            mibPerSecond(archiveBytes, restoreMs),
          ],
          ...(postgres
            ? [
                [
                  'restore vs tar -x + pg_restore',
                  seconds(restoreMs),
                  seconds(median(times.toolsExtract)),
                  ratio(restoreMs / median(times.toolsExtract)),
                  mibPerSecond(archiveBytes, restoreMs),
                ],
              ]
            : []),
        ],
      ),
    );
    // Judged against what copies the same data with the database's own tools: tar alone on
    // SQLite (the database is a file in DATA_DIR), tar and pg_dump / pg_restore on PostgreSQL.
    const counterpart = postgres ? 'tar + pg_dump/pg_restore' : 'tar';
    const check = (label: string, forge: number, tools: number): TargetCheck => ({
      bench: 'backup',
      label,
      value: `${seconds(forge)} vs ${seconds(tools)} = ${ratio(forge / tools)}`,
      target: `≤ ${TARGET}× ${counterpart}`,
      status: forge / tools <= TARGET ? 'meets' : 'misses',
    });
    return [
      check(`backup, ${mibPerSecond(archiveBytes, backupMs)}`, backupMs, median(postgres ? times.toolsCreate : times.tarCreate)),
      check(`restore, ${mibPerSecond(archiveBytes, restoreMs)}`, restoreMs, median(postgres ? times.toolsExtract : times.tarExtract)),
    ];
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
    await app.close();
  }
}

export const backupBench: Benchmark = {
  name: 'backup',
  description: 'forge backup and forge restore beside tar of the same DATA_DIR (20,000 commits, 10,000 issues)',
  run,
};
