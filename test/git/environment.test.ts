import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRepository } from '../../src/git/repositories';
import { gitText } from '../../src/git/run';

/**
 * Forge's git processes in a process whose environment points git elsewhere in every way it can:
 * none of it reaches them (`src/git/environment.ts`). This file's process runs no git client.
 */
const hostile = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-git-env-'));
const home = path.join(hostile, 'home');
const elsewhere = path.join(hostile, 'elsewhere.git');
let repo: string;

before(async () => {
  fs.mkdirSync(path.join(home, '.config', 'git'), { recursive: true });
  fs.writeFileSync(path.join(hostile, 'system'), '[core]\n\thooksPath = /from/system\n');
  fs.writeFileSync(path.join(home, '.gitconfig'), '[core]\n\thooksPath = /from/home\n');
  fs.writeFileSync(path.join(home, '.config', 'git', 'config'), '[core]\n\thooksPath = /from/xdg\n');
  fs.writeFileSync(path.join(home, '.config', 'git', 'attributes'), '* filter=hostile\n');
  Object.assign(process.env, {
    GIT_CONFIG_SYSTEM: path.join(hostile, 'system'),
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    GIT_DIR: elsewhere,
    GIT_CONFIG_PARAMETERS: "'core.hookspath'='/from/parameters'",
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'uploadpack.packObjectsHook',
    GIT_CONFIG_VALUE_0: '/from/count',
  });
  await createRepository(path.join(hostile, 'elsewhere.git'));
  repo = path.join(hostile, 'repo.git');
  await createRepository(repo);
});
after(() => fs.rmSync(hostile, { recursive: true, force: true }));

describe("the environment of Forge's git", () => {
  test("reads no configuration but the repository's own", async () => {
    const listed = await gitText(repo, ['config', '--list', '--show-scope']);
    assert.deepEqual(
      listed.split('\n').filter((line) => !line.startsWith('local\t')),
      [''],
    );
  });

  test('reads no attributes file of the home directory', async () => {
    assert.equal(await gitText(repo, ['check-attr', 'filter', '--', 'a.txt']), 'a.txt: filter: unspecified\n');
  });

  test('works on the repository it is given, not the one GIT_DIR names', async () => {
    assert.equal((await gitText(repo, ['rev-parse', '--absolute-git-dir'])).trim(), fs.realpathSync(repo));
  });

  test("has a HOME of its own, and none of the caller's git variables", async () => {
    // A shell alias shows the environment git runs its programs in (hooks and filters would see the same).
    const shown = await gitText(repo, ['-c', 'alias.env=!env', 'env']);
    const variables = new Map(
      shown
        .split('\n')
        .filter(Boolean)
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    assert.notEqual(variables.get('HOME'), home);
    assert.equal(variables.get('XDG_CONFIG_HOME'), variables.get('HOME'));
    assert.deepEqual(fs.readdirSync(variables.get('HOME')!), []);
    assert.equal(variables.get('GIT_DIR'), repo);
    for (const name of ['GIT_CONFIG_COUNT', 'GIT_CONFIG_KEY_0', 'GIT_CONFIG_SYSTEM']) assert.equal(variables.get(name), undefined, name);
    assert.equal(variables.get('GIT_CONFIG_NOSYSTEM'), '1');
    assert.equal(variables.get('GIT_CONFIG_GLOBAL'), '/dev/null');
  });
});
