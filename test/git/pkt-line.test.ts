import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { FLUSH, pktLine, readPushCommands, refusalReport, startsAsPktLine } from '../../src/git/pkt-line';
import { basicCredentials } from '../../src/git-http/credentials';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const Z = '0'.repeat(40);

const collect = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** A stream that hands out its bytes a few at a time, as a slow network would. */
const trickle = (bytes: Buffer, size: number) =>
  Readable.from(
    (function* () {
      for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
    })(),
    { objectMode: false },
  );

describe('reading the ref updates of a push', () => {
  const request = Buffer.concat([
    pktLine(`shallow ${A}`),
    pktLine(`${Z} ${A} refs/heads/new\0report-status side-band-64k agent=git/2.39.5\n`),
    pktLine(`${A} ${B} refs/heads/master\n`),
    pktLine(`${B} ${Z} refs/tags/v1\n`),
    FLUSH,
    Buffer.from('PACK\0\0\0\x02 pretend pack bytes'),
  ]);

  for (const size of [1, 7, 4096]) {
    test(`commands and capabilities are read and the body is replayed whole (chunks of ${size})`, async () => {
      const push = await readPushCommands(trickle(request, size));
      assert.equal(push.complete, true);
      assert.deepEqual(push.updates, [
        { oldId: Z, newId: A, ref: 'refs/heads/new' },
        { oldId: A, newId: B, ref: 'refs/heads/master' },
        { oldId: B, newId: Z, ref: 'refs/tags/v1' },
      ]);
      assert.deepEqual([...push.capabilities], ['report-status', 'side-band-64k', 'agent=git/2.39.5']);
      assert.deepEqual(await collect(push.body), request);
    });
  }

  test('an empty probe request has no updates', async () => {
    const push = await readPushCommands(Readable.from([FLUSH]));
    assert.deepEqual(push.updates, []);
    assert.deepEqual(await collect(push.body), FLUSH);
  });

  test('a command list beyond the limit is reported incomplete', async () => {
    const many = Buffer.concat(Array.from({ length: 100 }, (_, i) => pktLine(`${A} ${B} refs/heads/b${i}\n`)));
    const push = await readPushCommands(trickle(many, 64), 1000);
    assert.equal(push.complete, false);
  });

  test('a length that is not four hex digits, or is 1 to 3, is malformed; a well-framed list is not', async () => {
    for (const body of [
      Buffer.alloc(64),
      Buffer.concat([pktLine(`${Z} ${A} refs/heads/x\n`), Buffer.from('zz12')]),
      Buffer.from('0003'),
      Buffer.from(' 12a'),
    ]) {
      assert.equal((await readPushCommands(trickle(body, 3))).malformed, true, JSON.stringify(body.toString('latin1')));
    }
    assert.equal((await readPushCommands(trickle(request, 3))).malformed, false);
  });
});

describe('whether a body starts as a pkt-line', () => {
  for (const [label, body, expected] of [
    ['a pkt-line', Buffer.concat([pktLine('want x\n'), FLUSH]), true],
    ['a flush', FLUSH, true],
    ['an empty body', Buffer.alloc(0), true],
    ['NUL bytes', Buffer.alloc(1024), false],
    ['a length of 1 to 3', Buffer.from('0002abc'), false],
    ['fewer than four bytes', Buffer.from('00'), false],
    ['JSON', Buffer.from('{"a":1}'), false],
  ] as const) {
    test(`${label}: ${expected}, and a good body is still whole afterwards`, async () => {
      const source = trickle(body, 1);
      assert.equal(await startsAsPktLine(source), expected);
      if (expected) assert.deepEqual(await collect(source), body);
    });
  }
});

describe('the refusal report', () => {
  const updates = [
    { oldId: A, newId: B, ref: 'refs/heads/protected' },
    { oldId: Z, newId: A, ref: 'refs/heads/other' },
  ];
  const reasons = new Map([['refs/heads/protected', 'Not allowed.\nSecond line']]);

  test('plain report-status: unpack ok and one ng line per update', () => {
    const report = refusalReport({ capabilities: new Set(['report-status']), updates, reasons, messages: ['Not allowed.'] });
    assert.equal(
      report.toString(),
      '000eunpack ok\n' +
        '0035ng refs/heads/protected Not allowed. Second line\n' +
        '004ang refs/heads/other declined: another update in this push was refused\n' +
        '0000',
    );
  });

  test('with a side band: messages on band 2, the report on band 1, then a flush', () => {
    const report = refusalReport({
      capabilities: new Set(['report-status', 'side-band-64k']),
      updates,
      reasons,
      messages: ['Not allowed.'],
    });
    const text = report.toString('latin1');
    assert.ok(text.startsWith('0012\x02Not allowed.\n'));
    assert.ok(text.includes('\x01000eunpack ok\n0035ng refs/heads/protected'));
    assert.ok(text.endsWith('00000000'));
  });

  test('a client that asked for no report gets none', () => {
    assert.equal(refusalReport({ capabilities: new Set(), updates, reasons, messages: [] }).length, 0);
  });
});

describe('HTTP Basic credentials', () => {
  test('user and password (which may hold colons); other schemes are no credentials; broken Basic is malformed', () => {
    const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
    assert.deepEqual(basicCredentials(basic('alice:pa:ss')), { username: 'alice', password: 'pa:ss' });
    assert.equal(basicCredentials(undefined), undefined);
    assert.equal(basicCredentials('Bearer abc'), undefined);
    assert.equal(basicCredentials(basic('nocolon')), 'malformed');
    assert.equal(basicCredentials(basic(':password')), 'malformed');
    assert.equal(basicCredentials('Basic'), 'malformed');
  });
});
