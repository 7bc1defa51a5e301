import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readJunit } from '../../src/services/ci/test-reports/junit-reader';
import { suiteNameOf } from '../../src/services/ci/test-reports/summary';
import type { TestCase } from '../../src/services/ci/test-reports/types';
import { LIMITS } from '../../src/lib/limits';

/* The JUnit reader: what it makes of real reports, and that hostile ones end quickly in bounded memory. */

async function read(xml: string | string[], outputChars = 1000): Promise<{ cases: TestCase[]; error: string | null }> {
  const cases: TestCase[] = [];
  const error = await readJunit(typeof xml === 'string' ? [xml] : xml, (testCase) => cases.push(testCase), { outputChars });
  return { cases, error };
}

describe('readJunit', () => {
  test('testsuites, nested testsuites and a bare testsuite: every testcase with its status, names, file and time', async () => {
    const { cases, error } = await read(`<?xml version="1.0"?>
<testsuites>
  <testsuite name="outer"><testsuite name="inner">
    <testcase name="a" classname="A" file="spec/a_spec.rb" time="0.125"/>
  </testsuite></testsuite>
  <testsuite name="b">
    <testcase name="fails" classname="B" time="1,000.5"><failure message="m" type="T">expected 1</failure><system-out>out</system-out></testcase>
    <testcase name="errs"><error message="boom"/></testcase>
    <testcase name="skips"><skipped/></testcase>
    <testcase name="fails and errs"><error>second</error><failure>first</failure></testcase>
  </testsuite>
</testsuites>`);
    assert.equal(error, null);
    assert.deepEqual(
      cases.map((c) => [c.name, c.status, c.classname, c.file, c.execution_time, c.system_output]),
      [
        ['a', 'success', 'A', 'spec/a_spec.rb', 0.125, null],
        ['fails', 'failed', 'B', null, 1000.5, 'expected 1'],
        ['errs', 'error', null, null, 0, 'boom'],
        ['skips', 'skipped', null, null, 0, null],
        // `failure` wins over `error`, as GitLab checks it first.
        ['fails and errs', 'failed', null, null, 0, 'first'],
      ],
    );
  });

  test("a passed case shows its system-out; CDATA, XML's entities and numeric references are read", async () => {
    const { cases } = await read(
      '<testsuite><testcase name="&lt;a&gt; &amp; &#233;"><system-out><![CDATA[<raw> & done]]></system-out></testcase></testsuite>',
    );
    assert.deepEqual([cases[0].name, cases[0].system_output], ['<a> & é', '<raw> & done']);
  });

  test('several documents one after the other (a gzip of several files) read as one; a namespace prefix is ignored', async () => {
    const { cases } = await read([
      '<?xml version="1.0"?><testsuite><testcase name="one"/></testsuite>\n',
      '<?xml version="1.0"?><j:testsuite xmlns:j="urn:x"><j:testcase name="two"><j:failure/></j:testcase></j:testsuite>',
    ]);
    assert.deepEqual(
      cases.map((c) => [c.name, c.status]),
      [
        ['one', 'success'],
        ['two', 'failed'],
      ],
    );
  });

  test('a document split anywhere, even inside a UTF-8 character, reads the same', async () => {
    const xml = Buffer.from('<testsuite><testcase name="ünïcødé ✓" time="2"><failure>ß</failure></testcase></testsuite>');
    const whole = await read([xml.toString()]);
    const cases: TestCase[] = [];
    const bytes = (async function* () {
      for (let i = 0; i < xml.length; i += 3) yield xml.subarray(i, i + 3);
    })();
    assert.equal(await readJunit(bytes, (c) => cases.push(c), { outputChars: 100 }), null);
    assert.deepEqual(cases, whole.cases);
  });

  test('unclosed or broken XML keeps what it could read, without an error', async () => {
    const { cases, error } = await read('<testsuite><testcase name="x"><failure>half');
    assert.equal(error, null);
    assert.deepEqual([cases[0].name, cases[0].status, cases[0].system_output], ['x', 'failed', 'half']);
    assert.deepEqual((await read('not xml at all <<<>>> &&&')).cases, []);
  });

  test('output is kept up to the asked number of characters, none when counting only', async () => {
    const long = 'x'.repeat(5000);
    assert.equal((await read(`<testcase name="a"><failure>${long}</failure></testcase>`, 100)).cases[0].system_output, 'x'.repeat(100));
    assert.equal((await read(`<testcase name="a"><failure>${long}</failure></testcase>`, 0)).cases[0].system_output, null);
  });
});

describe('readJunit with hostile input', () => {
  test('entities declared in a DTD are never expanded (a billion laughs stays a few bytes)', async () => {
    const laughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY xxe SYSTEM "file:///etc/passwd">
]>
<testsuite><testcase name="&lol9;"><failure>&xxe;</failure></testcase></testsuite>`;
    const { cases, error } = await read(laughs);
    assert.equal(error, null);
    assert.equal(cases[0].name, '&lol9;');
    assert.equal(cases[0].system_output, '&xxe;');
  });

  test('elements nested past the depth limit stop the reading with an error, quickly', async () => {
    const started = Date.now();
    const deep = '<testsuite>'.repeat(1_000_000);
    const { error } = await read(deep);
    assert.match(error ?? '', /nested deeper than 64 levels/);
    assert.ok(Date.now() - started < 5000);
  });

  test('a report past the reading limit stops with an error, without reading the rest', async () => {
    let served = 0;
    const endless = (async function* () {
      yield '<testsuite>';
      const chunk = Buffer.from('<testcase name="t"/>'.repeat(3000));
      for (;;) {
        served += chunk.length;
        yield chunk;
      }
    })();
    let count = 0;
    const error = await readJunit(endless, () => count++);
    assert.match(error ?? '', /larger than 32 MiB/);
    assert.ok(served <= LIMITS.junitXmlBytes + 100_000);
    assert.ok(count > 1_000_000);
  });

  test('a huge attribute or text is bounded in what is kept', async () => {
    const huge = 'a'.repeat(2_000_000);
    const { cases } = await read(`<testcase name="${huge}" classname="c"><failure>${huge}</failure></testcase>`, 10);
    assert.equal(cases[0].name?.length, 4096);
    assert.equal(cases[0].system_output, 'a'.repeat(10));
  });
});

describe('suiteNameOf', () => {
  test("a parallel job's parts and a matrix job's variants are one suite", () => {
    assert.equal(suiteNameOf('rspec 1/3'), 'rspec');
    assert.equal(suiteNameOf('rspec 3/3'), 'rspec');
    assert.equal(suiteNameOf('test: [ruby, 3.2]'), 'test');
    assert.equal(suiteNameOf('unit'), 'unit');
  });
});
