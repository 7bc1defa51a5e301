import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ArchiveWriter } from '../../src/backup/archive-writer';
import { readArchive, readBody } from '../../src/backup/archive';
import { tempDir } from '../support/git';

/*
 * The archive's tar, written through the writer's shared buffers and its hashing thread: entries
 * across buffer boundaries, names too long for ustar (a pax header), links, and the SHA-256s it
 * gives (the archive's and one entry's) against the file's own bytes, read back by the restore's
 * reader and by tar.
 */

const sha256 = (bytes: Buffer | string) => crypto.createHash('sha256').update(bytes).digest('hex');

test('the archive writer writes a tar that tar and the reader read, with its SHA-256s', async () => {
  const dir = tempDir();
  const big = crypto.randomBytes(3 * 1024 * 1024 + 123);
  const database = crypto.randomBytes(1024 * 1024 + 7);
  const source = path.join(dir, 'big.bin');
  fs.writeFileSync(source, big);
  const longName = `data/${'a'.repeat(120)}/${'b'.repeat(130)}.pack`;
  const file = path.join(dir, 'archive.tar');
  const writer = new ArchiveWriter(file);
  await writer.addBuffer('first.json', '{"a":1}\n');
  const databaseDigest = await writer.addBufferWithDigest('database/forge.db', database);
  const handle = await fs.promises.open(source, 'r');
  const fileDigest = await writer.addFileWithDigest('data/one.pack', handle, big.length, new Date());
  await writer.addFile(longName, handle, big.length, new Date());
  await handle.close();
  await writer.addLink('data/linked.pack', longName);
  await writer.addBuffer('empty', Buffer.alloc(0));
  const { size, sha256: archiveDigest } = await writer.finish();

  const written = fs.readFileSync(file);
  assert.equal(size, written.length);
  assert.equal(size % 512, 0);
  assert.equal(archiveDigest, sha256(written));
  assert.equal(databaseDigest, sha256(database));
  assert.equal(fileDigest, sha256(big));

  const entries: Array<{ name: string; type: string; linkname?: string; body: Buffer }> = [];
  await readArchive(file, async (entry) => {
    entries.push({ name: entry.name, type: entry.type, linkname: entry.linkname, body: await readBody(entry.body) });
  });
  assert.deepEqual(
    entries.map((entry) => [entry.name, entry.type, entry.linkname, entry.body.length]),
    [
      ['first.json', 'file', undefined, 8],
      ['database/forge.db', 'file', undefined, database.length],
      ['data/one.pack', 'file', undefined, big.length],
      [longName, 'file', undefined, big.length],
      ['data/linked.pack', 'link', longName, 0],
      ['empty', 'file', undefined, 0],
    ],
  );
  assert.ok(entries[1].body.equals(database));
  assert.ok(entries[3].body.equals(big));
  const listed = execFileSync('tar', ['-tf', file], { encoding: 'utf8' }).trim().split('\n');
  assert.deepEqual(
    listed,
    entries.map((entry) => entry.name),
  );
});

test('a writer abandoned after a failure leaves nothing running', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'archive.tar');
  fs.writeFileSync(file, 'taken');
  const writer = new ArchiveWriter(file);
  await assert.rejects(writer.addBuffer('big', crypto.randomBytes(5 * 1024 * 1024)), { code: 'EEXIST' });
  await writer.abandon();
});
