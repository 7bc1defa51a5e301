import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { isEmptyDatabase } from '../../src/db/dump/tables';
import { openDatabase } from '../../src/db/index';
import { startApp, type TestApp } from '../support/app';
import { tempDir } from '../support/git';
import { createRootProject } from '../support/repo';
import { backupInProcess, emptyInstance, restore, restoreInProcess, rewriteArchive, type Target } from '../support/backup';

/*
 * `forge restore` writes only into an empty DATA_DIR and an empty database, and says in one line
 * what stops it; `forge backup` never writes over an archive.
 */

let app: TestApp;
let archive: string;
const targets: Target[] = [];

const newTarget = async () => {
  const target = await emptyInstance(process.env.TEST_DATABASE_URL);
  targets.push(target);
  return target;
};

before(async () => {
  app = await startApp();
  await createRootProject(app, 'kept');
  archive = path.join(tempDir(), 'refusals.tar');
  await backupInProcess(app, archive);
});

after(async () => {
  await app.close();
  for (const target of targets) await target.drop();
});

/** Exit 1, and after the line naming the instance, one line. */
function refusedWith(result: { code: number | null; stderr: string }, pattern: RegExp): void {
  assert.equal(result.code, 1, result.stderr);
  const lines = result.stderr.trim().split('\n');
  assert.equal(lines.length, 2, result.stderr);
  assert.match(lines[0], /^forge restore: instance DATA_DIR=/);
  assert.match(lines[1], pattern);
}

describe('forge restore refuses', () => {
  test('a DATA_DIR that is not empty, touching nothing', async () => {
    const target = await newTarget();
    fs.mkdirSync(target.dataDir, { recursive: true });
    fs.writeFileSync(path.join(target.dataDir, 'something'), 'x');
    refusedWith(
      await restore(target.env, archive),
      /^forge restore: DATA_DIR=.* is not empty \(something\): forge restore needs an empty DATA_DIR and an empty database$/,
    );
    assert.deepEqual(fs.readdirSync(target.dataDir), ['something']);
  });

  test('a database that is not empty', { skip: !process.env.TEST_DATABASE_URL && 'on SQLite the database is in DATA_DIR' }, async () => {
    const target = await newTarget();
    refusedWith(
      await restore({ DATA_DIR: target.dataDir, DATABASE_URL: app.databaseUrl }, archive),
      /^forge restore: the database \(PostgreSQL .*\) is not empty: forge restore needs an empty DATA_DIR and an empty database$/,
    );
  });

  test('without the secrets file, or with another backup’s', async () => {
    const elsewhere = path.join(tempDir(), 'moved.tar');
    fs.copyFileSync(archive, elsewhere);
    await assert.rejects(
      restoreInProcess(await newTarget(), elsewhere),
      /moved\.tar\.secrets does not exist: the secret key is kept apart from the archive/,
    );

    const other = await startApp();
    try {
      const otherArchive = path.join(tempDir(), 'other.tar');
      await backupInProcess(other, otherArchive);
      await assert.rejects(
        restoreInProcess(await newTarget(), archive, `${otherArchive}.secrets`),
        /the secrets file does not belong to this backup/,
      );
    } finally {
      await other.close();
    }
  });

  test('an archive whose database is damaged, loading nothing', async () => {
    const damaged = path.join(tempDir(), 'damaged.tar');
    await rewriteArchive(archive, damaged, (name, body) => {
      if (name !== 'database/forge.db') return body;
      // One byte of the last page, as a disk or a copy might change it.
      const changed = Buffer.from(body);
      changed[changed.length - 100] ^= 0xff;
      return changed;
    });
    fs.copyFileSync(`${archive}.secrets`, `${damaged}.secrets`);
    const target = await newTarget();
    await assert.rejects(restoreInProcess(target, damaged), /damaged\.tar is damaged: its database does not match its SHA-256/);
    const served = openDatabase(target);
    try {
      assert.ok(await isEmptyDatabase(served), 'the database holds nothing of the archive');
    } finally {
      await served.db.destroy();
    }
  });

  test('a cut archive', async () => {
    const cut = path.join(tempDir(), 'cut.tar');
    fs.writeFileSync(cut, fs.readFileSync(archive).subarray(0, fs.statSync(archive).size - 3000));
    fs.copyFileSync(`${archive}.secrets`, `${cut}.secrets`);
    await assert.rejects(restoreInProcess(await newTarget(), cut), /cut\.tar ends early: the archive is incomplete/);
  });
});

describe('forge backup refuses', () => {
  test('to write over an archive', async () => {
    await assert.rejects(backupInProcess(app, archive), /refusals\.tar already exists: choose another --to/);
  });
});
