import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { DiskFileStore, InvalidKeyError, SizeMismatchError, type FileStore } from '../../src/storage/index';

let dir: string;
let store: FileStore;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-files-'));
  store = new DiskFileStore(path.join(dir, 'files'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const readAll = async (key: string, range?: { start?: number; end?: number }) => {
  const stream = await store.read(key, range);
  return stream === undefined ? undefined : text(stream);
};

/** Every file under the store's folder, temporary ones included, as paths relative to it. */
const filesOnDisk = () =>
  (fs.readdirSync(path.join(dir, 'files'), { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(path.join(dir, 'files'), path.join(entry.parentPath, entry.name)));

describe('put and read', () => {
  test('a put stream reads back whole, and put resolves to its size', async () => {
    const size = await store.put('uploads/1/a.txt', Readable.from(['hello ', 'world', Buffer.from('!')]));
    assert.equal(size, 12);
    assert.equal(await readAll('uploads/1/a.txt'), 'hello world!');
    assert.equal((await store.stat('uploads/1/a.txt'))?.size, 12);
  });

  test('a second put replaces the file', async () => {
    await store.put('uploads/1/b.txt', Readable.from(['first version, longer']));
    await store.put('uploads/1/b.txt', Readable.from(['second']));
    assert.equal(await readAll('uploads/1/b.txt'), 'second');
  });

  test('an empty source stores an empty file', async () => {
    assert.equal(await store.put('uploads/1/empty', Readable.from([])), 0);
    assert.deepEqual({ ...(await store.stat('uploads/1/empty')), modifiedAt: undefined }, { size: 0, modifiedAt: undefined });
    assert.equal(await readAll('uploads/1/empty'), '');
  });

  test('reading or stating a missing key gives undefined', async () => {
    assert.equal(await store.read('uploads/none'), undefined);
    assert.equal(await store.stat('uploads/none'), undefined);
  });

  test('a folder of keys is no file', async () => {
    await store.put('folder/inner', Readable.from(['x']));
    assert.equal(await store.stat('folder'), undefined);
    assert.equal(await store.read('folder'), undefined);
  });

  test('stat tells the modification time', async () => {
    const before = Date.now();
    await store.put('uploads/1/timed', Readable.from(['x']));
    const stat = await store.stat('uploads/1/timed');
    assert.ok(stat!.modifiedAt instanceof Date);
    // Filesystem clocks may round down to the second.
    assert.ok(stat!.modifiedAt.getTime() >= Math.floor(before / 1000) * 1000 - 1000);
  });
});

describe('read a range', () => {
  before(() => store.put('ranges/digits', Readable.from(['0123456789'])));

  test('bytes [start, end)', async () => {
    assert.equal(await readAll('ranges/digits', { start: 2, end: 5 }), '234');
  });
  test('from start to the end of the file', async () => {
    assert.equal(await readAll('ranges/digits', { start: 7 }), '789');
  });
  test('from the beginning to end', async () => {
    assert.equal(await readAll('ranges/digits', { end: 3 }), '012');
  });
  test('an end past the file stops at the file', async () => {
    assert.equal(await readAll('ranges/digits', { start: 8, end: 100 }), '89');
  });
  test('an empty or inverted range reads nothing', async () => {
    assert.equal(await readAll('ranges/digits', { start: 4, end: 4 }), '');
    assert.equal(await readAll('ranges/digits', { start: 6, end: 2 }), '');
    assert.equal(await readAll('ranges/digits', { start: 20 }), '');
  });
  test('a negative or fractional bound is refused', async () => {
    await assert.rejects(store.read('ranges/digits', { start: -1 }), RangeError);
    await assert.rejects(store.read('ranges/digits', { end: 1.5 }), RangeError);
  });
});

describe('append', () => {
  test('creates the file, then adds to its end, resolving to the new size', async () => {
    assert.equal(await store.append('traces/1/1.log', 'abc'), 3);
    assert.equal(await store.append('traces/1/1.log', Buffer.from('de')), 5);
    assert.equal(await readAll('traces/1/1.log'), 'abcde');
  });

  test('an append that need not be durable lands the same, in order', async () => {
    assert.equal(await store.append('traces/1/3.log', 'abc', { durable: false }), 3);
    assert.equal(await store.append('traces/1/3.log', 'de', { durable: false }), 5);
    const stream = await store.read('traces/1/3.log');
    const chunks: Buffer[] = [];
    for await (const chunk of stream!) chunks.push(Buffer.from(chunk as Uint8Array));
    assert.equal(Buffer.concat(chunks).toString(), 'abcde');
  });

  test('an append expecting another size writes nothing and tells the size the file has', async () => {
    await assert.rejects(
      store.append('traces/1/4.log', 'abc', { expectedSize: 2 }),
      (error: unknown) => error instanceof SizeMismatchError && error.actualSize === 0,
    );
    assert.equal(await store.stat('traces/1/4.log').then((stat) => stat?.size ?? 0), 0);
    assert.equal(await store.append('traces/1/4.log', 'abc', { expectedSize: 0 }), 3);
    await assert.rejects(
      store.append('traces/1/4.log', 'de', { expectedSize: 1 }),
      (error: unknown) => error instanceof SizeMismatchError && error.actualSize === 3,
    );
    assert.equal(await store.append('traces/1/4.log', 'de', { expectedSize: 3 }), 5);
  });

  test('concurrent appends to one key land in call order', async () => {
    const parts = Array.from({ length: 200 }, (_, i) => `line ${i}\n`);
    const sizes = await Promise.all(parts.map((part) => store.append('traces/1/2.log', part)));
    assert.equal(await readAll('traces/1/2.log'), parts.join(''));
    // Each append saw every earlier one already written.
    assert.deepEqual(
      sizes,
      parts.map((_, i) => parts.slice(0, i + 1).join('').length),
    );
  });

  test('concurrent appends to different keys each keep their own order', async () => {
    const keys = ['traces/2/a.log', 'traces/2/b.log', 'traces/2/c.log'];
    const parts = Array.from({ length: 50 }, (_, i) => `${i},`);
    await Promise.all(parts.flatMap((part) => keys.map((key) => store.append(key, `${key.at(-5)}${part}`))));
    for (const key of keys) assert.equal(await readAll(key), parts.map((part) => `${key.at(-5)}${part}`).join(''));
  });

  test('a failed append does not stop the next one', async () => {
    await store.put('traces/3', Readable.from(['a file where a folder would be']));
    await assert.rejects(store.append('traces/3/1.log', 'x'));
    assert.equal(await store.append('traces/4/1.log', 'y'), 1);
  });
});

describe('a put that fails leaves nothing behind', () => {
  async function* failing(): AsyncGenerator<Buffer> {
    yield Buffer.from('part of a file');
    throw new Error('the upload broke');
  }

  test('a source that errors leaves no file and no temporary file', async () => {
    const before = filesOnDisk();
    await assert.rejects(store.put('uploads/2/broken.bin', failing()), /the upload broke/);
    assert.equal(await store.stat('uploads/2/broken.bin'), undefined);
    assert.deepEqual(filesOnDisk(), before);
  });

  test('a stream destroyed with an error leaves no file and no temporary file', async () => {
    const before = filesOnDisk();
    const source = new Readable({ read() {} });
    source.push('some bytes');
    setImmediate(() => source.destroy(new Error('client went away')));
    await assert.rejects(store.put('uploads/2/destroyed.bin', source), /client went away/);
    assert.equal(await store.stat('uploads/2/destroyed.bin'), undefined);
    assert.deepEqual(filesOnDisk(), before);
  });

  test('an aborted put leaves no file and no temporary file', async () => {
    const before = filesOnDisk();
    const controller = new AbortController();
    const source = new Readable({ read() {} });
    source.push('some bytes');
    const put = store.put('uploads/2/aborted.bin', source, { signal: controller.signal });
    // The source then sends nothing more: the abort alone must end the put.
    setImmediate(() => controller.abort());
    await assert.rejects(put, { name: 'AbortError' });
    assert.ok(source.destroyed);
    assert.equal(await store.stat('uploads/2/aborted.bin'), undefined);
    assert.deepEqual(filesOnDisk(), before);
  });

  test('a failed replacement keeps the old file', async () => {
    await store.put('uploads/2/kept.txt', Readable.from(['old']));
    await assert.rejects(store.put('uploads/2/kept.txt', failing()));
    assert.equal(await readAll('uploads/2/kept.txt'), 'old');
  });
});

describe('keys that escape the store are refused', () => {
  const bad: Array<[string, RegExp]> = [
    ['', /empty/],
    ['../outside', /"\.\." segment/],
    ['traces/../../outside', /"\.\." segment/],
    ['/etc/passwd', /absolute/],
    ['traces/1\0.log', /NUL/],
    ['traces//1.log', /empty segment/],
    ['traces/1/', /empty segment/],
    ['./traces', /"\." segment/],
    ['traces\\..\\x', /backslash/],
    ['.tmp/x', /reserved/],
  ];
  for (const [key, reason] of bad) {
    test(`${JSON.stringify(key)} by every operation`, async () => {
      const refused = (error: unknown) =>
        error instanceof InvalidKeyError && reason.test(error.message) && error.message.includes(JSON.stringify(key));
      await assert.rejects(store.put(key, Readable.from(['x'])), refused);
      await assert.rejects(store.append(key, 'x'), refused);
      await assert.rejects(store.read(key), refused);
      await assert.rejects(store.stat(key), refused);
      await assert.rejects(store.delete(key), refused);
    });
  }
  test('nothing was written outside the store', () => {
    assert.deepEqual(fs.readdirSync(dir), ['files']);
  });
  test('a prefix that escapes is refused by list', async () => {
    await assert.rejects(store.list('../'), InvalidKeyError);
    await assert.rejects(store.list('/etc/'), InvalidKeyError);
  });
});

describe('list by prefix', () => {
  before(async () => {
    for (const key of ['listed/12/345.log', 'listed/12/346.log', 'listed/120/1.log', 'listed/2/9.log', 'listed-not/1']) {
      await store.append(key, 'x');
    }
  });

  test('a folder prefix lists the keys below it, sorted', async () => {
    assert.deepEqual(await store.list('listed/12/'), ['listed/12/345.log', 'listed/12/346.log']);
  });
  test('a prefix is matched as a string, not only by folder', async () => {
    assert.deepEqual(await store.list('listed/12'), ['listed/12/345.log', 'listed/12/346.log', 'listed/120/1.log']);
    assert.deepEqual(await store.list('listed/12/34'), ['listed/12/345.log', 'listed/12/346.log']);
  });
  test('a prefix nothing matches lists nothing', async () => {
    assert.deepEqual(await store.list('listed/99/'), []);
    assert.deepEqual(await store.list('nowhere/at/all'), []);
  });
  test('the empty prefix lists every key, never a temporary file', async () => {
    const all = await store.list('');
    assert.ok(all.includes('listed/2/9.log') && all.includes('listed-not/1'));
    assert.ok(all.every((key) => !key.startsWith('.tmp')));
  });
});

describe('delete', () => {
  test('removes the file; a second delete is no error', async () => {
    await store.put('gone/1', Readable.from(['x']));
    await store.delete('gone/1');
    assert.equal(await store.stat('gone/1'), undefined);
    await store.delete('gone/1');
    await store.delete('gone/never-there');
    assert.deepEqual(await store.list('gone/'), []);
  });

  test('deleting a folder of keys removes nothing', async () => {
    await store.put('kept-folder/1', Readable.from(['x']));
    await store.delete('kept-folder');
    assert.deepEqual(await store.list('kept-folder/'), ['kept-folder/1']);
  });
});
