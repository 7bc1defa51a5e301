import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config';
import { openDatabase } from '../../db/index';
import { migrationStatus } from '../../db/migrate';
import { gitText } from '../../git/run';
import { verifySmtp } from '../../services/notifications/delivery';
import { databaseFailureLine, describeDatabase } from '../start-errors';
import { secretKeyFile, sqliteFile } from '../instance';

/*
 * What `forge admin check` looks at, each on its own. A check reads; it never creates or repairs
 * (no database, DATA_DIR or key is made where there was none).
 */

export interface CheckResult {
  name: string;
  /** 'skip': nothing to check (a feature that is off). */
  state: 'ok' | 'fail' | 'skip';
  detail: string;
}

const ok = (name: string, detail: string): CheckResult => ({ name, state: 'ok', detail });
const fail = (name: string, detail: string): CheckResult => ({ name, state: 'fail', detail });

/** merge-tree --write-tree (merges) came with git 2.38, cat-file --batch-command with 2.36. */
const GIT_NEEDED = [2, 38] as const;
/** Below this, a push or an artifacts upload may fail half-way. */
const MIN_FREE_BYTES = 1024 ** 3;

export async function checkGit(): Promise<CheckResult> {
  let version: string;
  try {
    version = (await gitText(null, ['--version'])).trim();
  } catch (error) {
    return fail(
      'git',
      `cannot run git (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): install git ${GIT_NEEDED.join('.')} or later`,
    );
  }
  const [major = 0, minor = 0] = (version.match(/(\d+)\.(\d+)/) ?? []).slice(1).map(Number);
  const recent = major > GIT_NEEDED[0] || (major === GIT_NEEDED[0] && minor >= GIT_NEEDED[1]);
  return recent ? ok('git', version) : fail('git', `${version}: Forge needs git ${GIT_NEEDED.join('.')} or later`);
}

export async function checkDatabase(config: Config): Promise<CheckResult> {
  const name = 'database';
  if (!config.databaseUrl && !fs.existsSync(sqliteFile(config)))
    return fail(name, `${sqliteFile(config)} does not exist (set DATA_DIR as the server has it)`);
  const database = openDatabase(config);
  try {
    const { executed, pending } = await migrationStatus(database);
    if (executed.length === 0) return fail(name, `${describeDatabase(config)} is reachable but empty: no Forge instance`);
    if (pending.length > 0)
      return fail(
        name,
        `${describeDatabase(config)} needs ${pending.length} migration(s) (${pending.join(', ')}): run forge migrate, or start the server`,
      );
    return ok(name, `${describeDatabase(config)} reachable, migrated (${executed.length} migrations)`);
  } catch (error) {
    return fail(name, databaseFailureLine(error, config) ?? `${describeDatabase(config)}: ${(error as Error).message}`);
  } finally {
    await database.db.destroy();
  }
}

export function checkDataDir(config: Config): CheckResult {
  const name = 'DATA_DIR';
  if (!fs.existsSync(config.dataDir)) return fail(name, `${config.dataDir} does not exist`);
  const probe = path.join(config.dataDir, `.forge-check-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
  try {
    fs.writeFileSync(probe, 'check');
    fs.rmSync(probe);
    return ok(name, `${config.dataDir} is writable`);
  } catch (error) {
    return fail(name, `cannot write in ${config.dataDir} (${(error as NodeJS.ErrnoException).code})`);
  }
}

export function checkFreeDisk(config: Config): CheckResult {
  const name = 'free disk';
  if (!fs.existsSync(config.dataDir)) return fail(name, `${config.dataDir} does not exist`);
  const stats = fs.statfsSync(config.dataDir);
  const free = stats.bavail * stats.bsize;
  const detail = `${(free / 1024 ** 3).toFixed(1)} GiB free under ${config.dataDir}`;
  return free >= MIN_FREE_BYTES ? ok(name, detail) : fail(name, `${detail}: less than ${MIN_FREE_BYTES / 1024 ** 3} GiB`);
}

export function checkSecretKey(config: Config): CheckResult {
  const name = 'secret key';
  const file = secretKeyFile(config);
  try {
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
    // Without it, private tokens and runner tokens sealed in the database cannot be read.
    return key.length === 32 ? ok(name, `${file} present`) : fail(name, `${file} does not hold a 256-bit key`);
  } catch (error) {
    return fail(
      name,
      `${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing (restore it from the backup: tokens in the database need it)' : (error as Error).message}`,
    );
  }
}

/**
 * E-mail is not built yet: nothing to reach. When SMTP settings exist (issue 28, point 4), this
 * connects to the server they name and reports its greeting, or fails naming the setting.
 */
export async function checkSmtp(config: Config): Promise<CheckResult> {
  const name = 'SMTP';
  if (!config.smtpUrl) return { name, state: 'skip', detail: 'not configured (SMTP_URL is empty): Forge sends no e-mail' };
  const url = new URL(config.smtpUrl);
  const server = `${url.protocol}//${url.host}`;
  try {
    await verifySmtp(config.smtpUrl);
    return ok(name, `${server} reachable, mail from ${config.emailFrom}`);
  } catch (error) {
    return fail(name, `${server}: ${(error as NodeJS.ErrnoException).code ?? ''} ${(error as Error).message}`.trim());
  }
}
