import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runForge } from '../support/forge-command';

/* `forge --help`, `forge <command> --help` and `forge admin <command> --help`: nothing is opened, no settings needed. */

describe('forge --help', () => {
  test('forge --help lists every command and setting; each command and admin command describes itself and its options', async () => {
    const top = await runForge(['--help'], {});
    assert.equal(top.code, 0);
    for (const name of ['serve', 'admin', 'runner', 'migrate', 'DATA_DIR', 'DATABASE_URL', 'PORT', 'SSH_PORT'])
      assert.match(top.stdout, new RegExp(`^  ${name} `, 'm'));
    const options: Record<string, string[]> = {
      'create-user': ['--username', '--email', '--name', '--password', '--admin'],
      'reset-password': ['--password'],
      'make-admin': ['--revoke'],
      block: [],
      unblock: [],
      'runners-token': [],
      check: [],
    };
    const adminHelp = await runForge(['admin', '--help'], {});
    assert.equal(adminHelp.code, 0);
    for (const [name, flags] of Object.entries(options)) {
      assert.match(adminHelp.stdout, new RegExp(`^  ${name} `, 'm'));
      const help = await runForge(['admin', name, '--help'], {});
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stdout, new RegExp(`^usage: forge admin ${name}`));
      for (const flag of flags) assert.match(help.stdout, new RegExp(`^  ${flag} `, 'm'), `${name} --help describes ${flag}`);
    }
    for (const name of ['serve', 'migrate', 'runner']) {
      const help = await runForge([name, '--help'], {});
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stdout, new RegExp(`^usage: forge ${name}`));
    }
    const unknown = await runForge(['admin', 'frobnicate'], {});
    assert.equal(unknown.code, 2);
    const badOption = await runForge(['admin', 'block', 'root', '--force'], {});
    assert.equal(badOption.code, 2);
    assert.match(badOption.stderr, /--force/);
  });
});
