import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { LIMITS } from '../../../src/lib/limits';

let app: TestApp;
before(async () => {
  app = await startApp();
});
after(() => app.close());

// Spelled out: the test client sends `/ci/…` paths to the runner API.
const LINT = '/api/v3/ci/lint';
const lint = (content: unknown) => app.anonymous.post(LINT, { content });

/** The answer to `content`, which must be 200 `invalid` with one message. */
async function firstError(content: string): Promise<string> {
  const response = await lint(content);
  assert.equal(response.status, 200, response.text);
  assert.equal(response.body.status, 'invalid');
  assert.equal(response.body.errors.length, 1);
  return response.body.errors[0];
}

const VALID = [
  'image: ruby:2.1',
  'services:',
  '  - postgres',
  'before_script:',
  '  - bundle install',
  'rspec:',
  '  script: rake spec',
  '  tags: [ruby, postgres]',
  '  only: [branches]',
  'production:',
  '  stage: deploy',
  '  script: cap deploy',
  '  only: [master, /^deploy-.*$/]',
].join('\n');

describe('POST /ci/lint', () => {
  test('needs no token: a valid file is 200 {"status":"valid","errors":[]}', async () => {
    const response = await lint(VALID);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { status: 'valid', errors: [] });
  });

  test('a signed-in caller gets the same answer', async () => {
    assert.deepEqual((await app.root.post(LINT, { content: VALID })).body, { status: 'valid', errors: [] });
  });

  test('an invalid file is 200 {"status":"invalid","errors":[<the first message>]}', async () => {
    const response = await lint('rspec:\n  script: x\n  tags: ruby\n  when: later\n');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { status: 'invalid', errors: ['jobs:rspec tags should be an array of strings'] });
  });

  test('empty or blank content: Please provide content of .gitlab-ci.yml', async () => {
    for (const content of ['', '   ', '\n\t\n']) assert.equal(await firstError(content), 'Please provide content of .gitlab-ci.yml');
  });

  test('a document that is not a hash: Invalid configuration format', async () => {
    for (const content of ['invalid content', '- a\n- b\n', '42', '~'])
      assert.equal(await firstError(content), 'Invalid configuration format');
  });

  test('a hash without a visible job: jobs config should contain at least one visible job', async () => {
    assert.equal(await firstError('{ image: "ruby:2.1",  services: ["postgres"] }'), 'jobs config should contain at least one visible job');
    assert.equal(await firstError('.hidden:\n  script: x\n'), 'jobs config should contain at least one visible job');
  });

  test('a YAML syntax error reads as Psych reported it', async () => {
    assert.match(await firstError('rspec: script: x\n'), /^\(<unknown>\): .+ at line 1 column \d+$/);
  });

  test('structural messages name the location, lower-cased', async () => {
    assert.equal(await firstError('RSpec:\n  script: x\n  Coverage: 1\n'), 'jobs:rspec config contains unknown keys: coverage');
    assert.equal(await firstError('before_script: make\nj:\n  script: x\n'), 'before_script config should be an array of strings');
    assert.equal(await firstError('variables:\n  A: 1\nj:\n  script: x\n'), 'variables config should be a hash of key value pairs');
    assert.equal(await firstError('j:\n  script: x\n  only: master\n'), 'jobs:j:only config should be an array of strings or regexps');
    assert.equal(
      await firstError('j:\n  script: x\n  artifacts:\n    expire_in: soon\n'),
      'jobs:j:artifacts expire in should be a duration',
    );
  });

  test('the logical checks keep the job name as written', async () => {
    assert.equal(await firstError('RSpec:\n  stage: lint\n  script: x\n'), 'RSpec job: stage parameter should be build, test, deploy');
    assert.equal(await firstError('a:\n  script: x\n  dependencies: [b]\n'), 'a job: undefined dependency: b');
  });

  test('a value safe_load refuses (a date) is Undefined error, not a 500', async () => {
    assert.equal(await firstError('j:\n  script: x\n  variables:\n    DAY: 2016-09-22\n'), 'Undefined error');
  });

  test('without content: 400 {"error":"content is missing"}', async () => {
    for (const body of [undefined, {}, { content: null }, { other: 'x' }]) {
      const response = await app.anonymous.post(LINT, body);
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, { error: 'content is missing' });
    }
  });

  test('content that is not text: 400 {"error":"content is invalid"}', async () => {
    for (const content of [['a', 'b'], { a: 1 }]) {
      const response = await lint(content);
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, { error: 'content is invalid' });
    }
  });

  test('a form body and the query string are read like JSON', async () => {
    const valid = await app.anonymous.form('POST', LINT, { content: VALID });
    assert.equal(valid.status, 200);
    assert.deepEqual(valid.body, { status: 'valid', errors: [] });
    const invalid = await app.anonymous.form('POST', LINT, { content: 'invalid content' });
    assert.deepEqual(invalid.body, { status: 'invalid', errors: ['Invalid configuration format'] });
    const query = await app.anonymous.post(`${LINT}?content=${encodeURIComponent(VALID)}`);
    assert.deepEqual(query.body, { status: 'valid', errors: [] });
  });

  test('content past the size pipelines read is invalid with their message, counted in bytes', async () => {
    const message = `.gitlab-ci.yml is too large (at most ${LIMITS.ciConfigBytes} bytes)`;
    const comment = `# ${'x'.repeat(LIMITS.ciConfigBytes)}\n`;
    assert.equal(await firstError(`${comment}${VALID}`), message);
    // Fewer characters than the limit, more bytes.
    const wide = `# ${'é'.repeat(LIMITS.ciConfigBytes / 2 + 1)}\n`;
    assert.equal(await firstError(`${wide}${VALID}`), message);
  });

  test('a body past the API body limit is 413', async () => {
    const response = await lint('x'.repeat(LIMITS.apiBodyBytes + 1));
    assert.equal(response.status, 413);
    assert.deepEqual(response.body, { message: '413 Request Entity Too Large' });
  });

  test('an alias bomb is refused without being expanded', async () => {
    const levels = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i <= 12; i++)
      levels.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    const bomb = `${levels.join('\n')}\njob:\n  script: *a12\n`;
    assert.match(await firstError(bomb), /^\(<unknown>\): too many aliases/);
  });

  test('a template merged into five thousand jobs is valid (each alias resolved once)', async () => {
    let content = '.template: &template\n  script: [make test]\n  tags: [linux]\n';
    for (let i = 0; i < 5_000; i++) content += `job${i}: {<<: *template}\n`;
    assert.deepEqual((await lint(content)).body, { status: 'valid', errors: [] });
  });

  test('nesting deep enough to exhaust the parser is an answer, not a 500', async () => {
    const response = await lint('['.repeat(200_000));
    assert.equal(response.status, 200);
    assert.equal(response.body.status, 'invalid');
  });
});
