import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startApp, type TestApp } from '../support/app';
import { createIssue } from '../support/create';
import { tempDir } from '../support/git';
import { seedCommit } from '../support/repo';
import { putArtifacts, putTrace, seedPipeline } from '../support/ci';
import { archiveContents, backupInProcess, emptyInstance, restoreInProcess, type Target } from '../support/backup';

/*
 * The archive is database-neutral: a backup of a SQLite instance restores onto PostgreSQL, whose
 * backup restores onto SQLite again, and every table's rows, every id counter, every repository
 * file and every stored file come through unchanged. Needs TEST_DATABASE_URL (a PostgreSQL server).
 */

const postgres = process.env.TEST_DATABASE_URL;
/** Backslashes (alone, before n, at the end), \\N, COPY's end marker on a line of its own, tabs, CR LF, JSON, astral characters. */
const AWKWARD = 'a\\b \\n \\N\n\\.\nTab\there\r\nCR\ronly {"json": ["x\\ty", null]} 🦊 trailing\\';
let app: TestApp;
const targets: Target[] = [];
const archives = tempDir();

const newTarget = async (base: string | undefined) => {
  const target = await emptyInstance(base);
  targets.push(target);
  return target;
};

before(async () => {
  if (!postgres) return;
  // A SQLite source even when the suite runs on PostgreSQL.
  app = await startApp({ DATABASE_URL: '' });
  const created = await app.root.post('/projects', { name: 'moved', visibility_level: 20 });
  const head = await seedCommit(app, created.body.id, { files: { 'README.md': 'hello\n' } });
  await seedCommit(app, created.body.id, { branch: 'feature', startRef: 'master', files: { 'a.txt': 'a\n' } });
  const user = await app.createUser({ bio: 'quotes " and \\ and ünïcode' });
  assert.equal((await user.client.post(`/projects/fork/${created.body.id}`)).status, 201);
  const issue = await createIssue(app.root, created.body.id, { title: 'an issue', description: 'line\nline', labels: 'bug,ui' });
  assert.equal((await app.root.post(`/projects/${created.body.id}/issues/${issue.id}/notes`, { body: 'a note' })).status, 201);
  // Values PostgreSQL's COPY text format escapes or reads specially: they come back as they went.
  await createIssue(app.root, created.body.id, { title: 'tab\there \\N', description: AWKWARD });
  assert.equal((await app.root.post(`/projects/${created.body.id}/issues/${issue.id}/notes`, { body: AWKWARD })).status, 201);
  // Text that reads as a number stays text.
  assert.equal((await app.root.post(`/projects/${created.body.id}/issues/${issue.id}/notes`, { body: '042' })).status, 201);
  // A row removed at the end of its table: the id counter stays past it.
  const removed = await createIssue(app.root, created.body.id, { title: 'removed' });
  assert.equal((await app.root.delete(`/projects/${created.body.id}/issues/${removed.id}`)).status, 200);
  const pipeline = await seedPipeline(app, created.body.id, {
    sha: head,
    status: 'success',
    builds: [{ name: 'test', status: 'success' }],
  });
  await putTrace(app, created.body.id, pipeline.builds[0], 'trace\n');
  await putArtifacts(app, created.body.id, pipeline.builds[0]);
});

after(async () => {
  await app?.close();
  for (const target of targets) await target.drop();
});

describe('a backup of SQLite restores onto PostgreSQL and back', { skip: !postgres && 'TEST_DATABASE_URL is not set' }, () => {
  test('row for row, counter for counter, file for file', async () => {
    const first = path.join(archives, 'sqlite.tar');
    // The running test server's instance is first copied into one nothing serves, which stays still.
    const still = await newTarget(undefined);
    await backupInProcess({ dataDir: app.dataDir, databaseUrl: '' }, path.join(archives, 'seed.tar'));
    await restoreInProcess(still, path.join(archives, 'seed.tar'));
    await backupInProcess(still, first);

    const onPostgres = await newTarget(postgres);
    await restoreInProcess(onPostgres, first);
    const second = path.join(archives, 'postgres.tar');
    await backupInProcess(onPostgres, second);
    const backOnSqlite = await newTarget(undefined);
    await restoreInProcess(backOnSqlite, second);
    const third = path.join(archives, 'sqlite-again.tar');
    await backupInProcess(backOnSqlite, third);

    const [a, b, c] = [await archiveContents(first), await archiveContents(second), await archiveContents(third)];
    assert.equal(a.manifest.source_database, 'sqlite');
    assert.equal(b.manifest.source_database, 'postgres');
    assert.ok(a.tables.get('users')!.includes('ünïcode'));
    assert.ok(a.tables.get('issues')!.includes(JSON.stringify(AWKWARD).slice(1, -1)), 'the awkward description is in the first archive');
    assert.ok(a.tables.get('notes')!.includes('"042"'));
    assert.ok(a.tables.has('label_links') && a.tables.has('ci_builds') && a.tables.has('notes'));
    const used = (manifest: any) => manifest.counters.filter((counter: any) => counter.value > 0);
    assert.ok(used(a.manifest).some((counter: any) => counter.table === 'issues' && counter.value === 3));
    for (const other of [b, c]) {
      assert.deepEqual([...other.tables.keys()], [...a.tables.keys()]);
      for (const [table, rows] of a.tables) assert.equal(other.tables.get(table), rows, table);
      assert.deepEqual(used(other.manifest), used(a.manifest));
    }
    const data = (names: string[]) => names.filter((name) => name.startsWith('data/')).sort();
    assert.ok(data(a.names).some((name) => name.includes('/builds/')));
    assert.deepEqual(data(b.names), data(a.names));
    assert.deepEqual(data(c.names), data(a.names));
  });
});
