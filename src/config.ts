import { isIP } from 'node:net';
import path from 'node:path';

/** Every setting Forge reads, typed, read once from the environment. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Empty means SQLite at DATA_DIR/forge.db. */
  databaseUrl: string;
  externalUrl: string;
  initialRootPassword?: string;
  initialRootToken?: string;
  logLevel: string;
  /** First retry delay of a failed background job; doubled on each further failure. */
  jobRetryBaseMs: number;
  jobMaxAttempts: number;
  /** Time allowed to an outgoing hook request. */
  hookTimeoutMs: number;
  /** Artifacts archives must be smaller than this many MiB (GitLab's `max_artifacts_size`). */
  maxArtifactsSizeMb: number;
  /** How long `POST /api/v4/jobs/request` holds a runner while no job is pending for it (RUNNER_POLL_TIMEOUT_MS, GitLab's 50 s). */
  runnerPollTimeoutMs: number;
  /** Git LFS on this instance (`LFS_ENABLED`, GitLab's `lfs.enabled`); a project's `lfs_enabled` counts only when this is on. */
  lfsEnabled: boolean;
  /** An LFS object may be at most this many MiB. */
  maxLfsObjectSizeMb: number;
  /**
   * The SSH server's port (git over SSH): null when SSH_PORT is 0 (off); 0 when SSH_PORT is `any`
   * (the system picks one, as PORT=0 does: tests and benchmarks), settled to the bound port once listening.
   */
  sshPort: number | null;
  /** The host shown in SSH clone URLs (SSH_HOST); empty: the external URL's host. */
  sshHost: string;
  /** `/-/metrics` and the measuring behind it (METRICS_ENABLED); off, the route answers 404 and nothing is measured. */
  metricsEnabled: boolean;
  /** A token that opens `/-/metrics` from any address (METRICS_TOKEN, as `Authorization: Bearer` or `?token=`); empty: none. */
  metricsToken: string;
  /** Addresses and CIDR ranges that may read `/-/metrics` without the token (METRICS_ALLOW); loopback by default, empty with `none`. */
  metricsAllow: string[];
  /** Where mail is handed for delivery (SMTP_URL: `smtp://user:pass@host:587`, `smtps://…`); empty: Forge sends no e-mail. */
  smtpUrl: string;
  /** The sender of Forge's mails (EMAIL_FROM); `forge@<the external URL's host>` by default. */
  emailFrom: string;
}

export class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER, why = ''): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new ConfigError(`${name} must be a non-negative integer, got "${raw}"`);
  if (value > max) throw new ConfigError(`${name} must be at most ${max}${why}, got "${raw}"`);
  return value;
}

/** Loopback only: metrics name routes, runners and load, nothing for the world to read. */
const METRICS_ALLOW_DEFAULT = '127.0.0.0/8, ::1';

/** A list of IP addresses and CIDR ranges, separated by commas or spaces; `none` for the empty list. */
function addressList(env: NodeJS.ProcessEnv, name: string, fallback: string): string[] {
  const raw = env[name]?.trim() || fallback;
  if (raw.toLowerCase() === 'none') return [];
  const entries = raw.split(/[\s,]+/).filter(Boolean);
  for (const entry of entries) {
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address);
    const bits = family === 6 ? 128 : 32;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (family === 0 || !prefixOk || extra !== undefined)
      throw new ConfigError(`${name} must list IP addresses or CIDR ranges (or be "none"), got "${entry}"`);
  }
  return entries;
}

function boolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

function smtpUrl(env: NodeJS.ProcessEnv): string {
  const raw = env.SMTP_URL?.trim() ?? '';
  if (!raw) return '';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`SMTP_URL is not a URL: "${raw}" (smtp://user:password@host:587 or smtps://…)`);
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new ConfigError(`SMTP_URL must start with smtp:// or smtps://, got "${raw}"`);
  return raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 8080);
  const databaseUrl = env.DATABASE_URL ?? '';
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// (leave it empty for SQLite)');
  }
  const externalUrl = (env.EXTERNAL_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    new URL(externalUrl);
  } catch {
    throw new ConfigError(`EXTERNAL_URL is not a URL: "${externalUrl}"`);
  }
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    externalUrl,
    initialRootPassword: env.INITIAL_ROOT_PASSWORD || undefined,
    initialRootToken: env.INITIAL_ROOT_TOKEN || undefined,
    logLevel: env.LOG_LEVEL || 'info',
    jobRetryBaseMs: integer(env, 'JOB_RETRY_BASE_MS', 1000),
    jobMaxAttempts: integer(env, 'JOB_MAX_ATTEMPTS', 10),
    // A job's lock is taken for abandoned after 5 minutes (src/jobs/queue.ts): a longer delivery would be sent twice.
    hookTimeoutMs: integer(env, 'HOOK_TIMEOUT_MS', 10000, 240_000, ' (a delivery must end well within the 5 minutes a job stays locked)'),
    maxArtifactsSizeMb: integer(env, 'MAX_ARTIFACTS_SIZE_MB', 100, 1024 * 1024),
    runnerPollTimeoutMs: integer(env, 'RUNNER_POLL_TIMEOUT_MS', 50_000, 10 * 60 * 1000),
    lfsEnabled: boolean(env, 'LFS_ENABLED', true),
    maxLfsObjectSizeMb: integer(env, 'MAX_LFS_OBJECT_SIZE_MB', 1024, 1024 * 1024),
    sshPort: env.SSH_PORT === 'any' ? 0 : integer(env, 'SSH_PORT', 2222, 65535) || null,
    sshHost: env.SSH_HOST || '',
    metricsEnabled: boolean(env, 'METRICS_ENABLED', true),
    metricsToken: env.METRICS_TOKEN || '',
    metricsAllow: addressList(env, 'METRICS_ALLOW', METRICS_ALLOW_DEFAULT),
    smtpUrl: smtpUrl(env),
    emailFrom: env.EMAIL_FROM || `forge@${new URL(externalUrl).hostname}`,
  };
}

/**
 * PORT=0 lets the system pick a free port when Forge listens (tests and benchmarks: probing for one
 * races with other processes). An external URL naming port 0 (the default `http://localhost:0`, or
 * say `EXTERNAL_URL=http://127.0.0.1:0`) is then settled to the port bound. Everything that shows
 * URLs reads them from this same config object when it shows them, so it sees the settled one.
 */
export function settleListeningPort(config: Config, boundPort: number): void {
  if (config.port !== 0) return;
  config.port = boundPort;
  const url = new URL(config.externalUrl);
  if (url.port !== '0') return;
  url.port = String(boundPort);
  config.externalUrl = url.toString().replace(/\/+$/, '');
}

/** SSH_PORT=any: the port the SSH server was given, shown in SSH clone URLs from then on. */
export function settleSshPort(config: Config, boundPort: number): void {
  if (config.sshPort === 0) config.sshPort = boundPort;
}
