import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { emptyInstance, restoreInProcess, rewriteArchive, serveRestored, type Target } from '../support/backup';
import { git, tempDir } from '../support/git';
import { repositoryPath } from '../../src/git/paths';

/*
 * Archives of the first backup format (each table's rows as JSON lines) still restore: a team that
 * upgraded rolls back, or moves on, with the backup it took before. `test/fixtures/backup-v1` is
 * such an archive, made by `forge backup` of that format from a SQLite test instance (migrations
 * up to 0020): root (password rootpassword, token root-private-token-0001) owns project 1 `old`
 * (a README commit, tag v1), forked by user 2 as project 2; issue 1 `kept since format 1` (label
 * bug, one note), issue 2 deleted; build 1 with a trace and artifacts.
 */

const FIXTURE = path.join(import.meta.dirname, '../fixtures/backup-v1/instance.tar');
const ROOT_TOKEN = 'root-private-token-0001';
const targets: Target[] = [];

const newTarget = async () => {
  const target = await emptyInstance(process.env.TEST_DATABASE_URL);
  targets.push(target);
  return target;
};

/** The fixture and its secrets in a folder of their own (a restore reads `<archive>.secrets`). */
function fixtureCopy(): string {
  const archive = path.join(tempDir(), 'instance.tar');
  fs.copyFileSync(FIXTURE, archive);
  fs.copyFileSync(`${FIXTURE}.secrets`, `${archive}.secrets`);
  return archive;
}

after(async () => {
  for (const target of targets) await target.drop();
});

describe('forge restore of a format 1 archive', () => {
  test('restores its rows, counters, repositories and files, and migrates them', async () => {
    const target = await newTarget();
    const result = await restoreInProcess(target, fixtureCopy());
    assert.deepEqual([result.repositories, result.files], [2, 2]);
    assert.equal(result.migrations.saved, 20);
    const { server, root } = await serveRestored(target, ROOT_TOKEN);
    try {
      const project = await root.get('/projects/1');
      assert.equal(project.body.path_with_namespace, 'root/old');
      const tags = await root.get('/projects/1/repository/tags');
      assert.deepEqual(
        tags.body.map((tag: any) => [tag.name, tag.message]),
        [['v1', 'one']],
      );
      assert.equal((await root.get('/projects/1/repository/files', { file_path: 'README.md', ref: 'master' })).status, 200);
      assert.equal((await root.get('/projects/2')).body.forked_from_project.id, 1);
      const issues = await root.get('/projects/1/issues');
      assert.deepEqual(
        issues.body.map((issue: any) => [issue.iid, issue.title, issue.labels]),
        [[1, 'kept since format 1', ['bug']]],
      );
      const notes = await root.get(`/projects/1/issues/${issues.body[0].id}/notes`);
      assert.deepEqual(
        notes.body.map((note: any) => note.body),
        ['a note'],
      );
      // The id counter stays past the deleted issue.
      const next = await root.post('/projects/1/issues', { title: 'after the restore' });
      assert.equal(next.status, 201);
      assert.equal(next.body.id, 3);
      assert.equal((await root.get('/projects/1/builds/1/trace')).text, 'the build said this\n');
      const fsck = await git(['--git-dir', repositoryPath(target.dataDir, 2), 'fsck', '--no-progress']);
      assert.equal(fsck.code, 0, fsck.stderr);
    } finally {
      await server.close();
    }
  });

  test('refuses one whose rows name a missing parent, loading none of them', async () => {
    const archive = fixtureCopy();
    const damaged = path.join(path.dirname(archive), 'orphan.tar');
    await rewriteArchive(archive, damaged, (name, body) => {
      if (!/^database\/\d+-projects\//.test(name)) return body;
      const [header, ...rows] = body.toString('utf8').trimEnd().split('\n');
      const at = (JSON.parse(header) as string[]).indexOf('namespace_id');
      // The fork's parent, project 1, now names a namespace that is not there.
      const [first, ...others] = rows;
      return Buffer.from(`${[header, JSON.stringify(Object.assign(JSON.parse(first), { [at]: 999_999 })), ...others].join('\n')}\n`);
    });
    fs.copyFileSync(`${archive}.secrets`, `${damaged}.secrets`);
    // SQLite checks the keys once the rows are in; PostgreSQL refuses the insert itself.
    await assert.rejects(
      restoreInProcess(await newTarget(), damaged),
      /orphan\.tar is damaged: 1 row\(s\) of projects name a missing row of namespaces|violates foreign key constraint/,
    );
  });
});
