import { loadConfig } from '../../config';
import type { Command } from '../command';
import { announceInstance } from '../instance';
import { checkDataDir, checkDatabase, checkFreeDisk, checkGit, checkSecretKey, checkSmtp, type CheckResult } from './checks';

const MARK: Record<CheckResult['state'], string> = { ok: 'ok  ', fail: 'FAIL', skip: '--  ' };

export const check: Command = {
  name: 'check',
  summary: 'check git, the database, DATA_DIR, free disk, the secret key and e-mail',
  help: `usage: forge admin check

Checks what the instance the settings name needs, changing nothing, one line each:
  git          installed, version 2.38 or later
  database     reachable and migrated by this version of Forge
  DATA_DIR     writable
  free disk    at least 1 GiB free under DATA_DIR
  secret key   DATA_DIR/secret.key present
  SMTP         the server of SMTP_URL answers and accepts its credentials (skipped when unset)
Exits 1 when a check fails.`,
  async run() {
    const config = loadConfig();
    announceInstance('forge admin check', config);
    const results = [
      await checkGit(),
      await checkDatabase(config),
      checkDataDir(config),
      checkFreeDisk(config),
      checkSecretKey(config),
      await checkSmtp(config),
    ];
    for (const result of results) process.stdout.write(`${MARK[result.state]}  ${result.name}: ${result.detail}\n`);
    const failed = results.filter((result) => result.state === 'fail').length;
    process.stdout.write(failed === 0 ? 'all checks passed\n' : `${failed} check(s) failed\n`);
    return failed === 0 ? 0 : 1;
  },
};
