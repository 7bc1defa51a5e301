import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { COMMAND_REFUSALS, parseSshCommand } from '../../src/ssh/command';

describe('the command an SSH client asks to run', () => {
  test('git and git-lfs spell a project path several ways: all read as namespace/project', () => {
    for (const line of [
      "git-upload-pack 'group/project.git'",
      "git-upload-pack '/group/project.git'",
      "git-upload-pack '/group/project.git/'",
      'git-upload-pack group/project',
      "git upload-pack 'group/project.git'",
    ]) {
      assert.deepEqual(parseSshCommand(line), { kind: 'git', service: 'upload-pack', path: 'group/project' }, line);
    }
    assert.deepEqual(parseSshCommand("git-receive-pack 'a.b/c-d_e.git'"), { kind: 'git', service: 'receive-pack', path: 'a.b/c-d_e' });
    assert.deepEqual(parseSshCommand("git-upload-archive 'g/p.git'"), { kind: 'git', service: 'upload-archive', path: 'g/p' });
    assert.deepEqual(parseSshCommand('git-lfs-authenticate g/p.git upload'), {
      kind: 'lfs-authenticate',
      path: 'g/p',
      operation: 'upload',
    });
  });

  test('anything else is refused, with what is understood', () => {
    const cases: Array<[string, string]> = [
      ['', COMMAND_REFUSALS.unknown],
      ['sh -c id', COMMAND_REFUSALS.unknown],
      ['git-shell', COMMAND_REFUSALS.unknown],
      ['git-upload-pack', COMMAND_REFUSALS.unknown],
      ["git-upload-pack 'a/b.git'; rm -rf /", COMMAND_REFUSALS.unknown],
      ["git-upload-pack 'a/b.git' 'c/d.git'", COMMAND_REFUSALS.unknown],
      ["git-upload-pack 'a/b.git'|id", COMMAND_REFUSALS.path],
      ['git-upload-pack "a/b.git"', COMMAND_REFUSALS.path],
      ["git-upload-pack 'a/b'\\''.git'", COMMAND_REFUSALS.path],
      ["git-upload-pack '../../etc'", COMMAND_REFUSALS.path],
      ["git-upload-pack '../b.git'", COMMAND_REFUSALS.path],
      ["git-upload-pack 'a/..'", COMMAND_REFUSALS.path],
      ["git-upload-pack '~/a/b.git'", COMMAND_REFUSALS.path],
      ["git-upload-pack 'a/b/c.git'", COMMAND_REFUSALS.path],
      ["git-upload-pack '$(id)/b.git'", COMMAND_REFUSALS.path],
      ["git-upload-pack '`id`/b.git'", COMMAND_REFUSALS.path],
      ["git-upload-pack 'a/-b.git'", COMMAND_REFUSALS.path],
      ['git-lfs-authenticate g/p.git', COMMAND_REFUSALS.lfsOperation],
      ['git-lfs-authenticate g/p.git delete', COMMAND_REFUSALS.lfsOperation],
      [`git-upload-pack '${'a'.repeat(2000)}/b.git'`, COMMAND_REFUSALS.unknown],
    ];
    for (const [line, refusal] of cases) assert.deepEqual(parseSshCommand(line), { refusal }, line);
  });
});
