import type { Config } from '../config';

/*
 * The failures a newcomer meets when starting Forge or pointing a command at it, each as one line
 * naming the setting to change, instead of a stack trace. Anything else is left to show its stack.
 */

interface SystemError {
  code?: string;
  syscall?: string;
  port?: number;
  message?: string;
}

/** One line for a failure of opening the database or listening; undefined when it is none of those. */
export function startFailureLine(error: unknown, config: Config): string | undefined {
  const { code, syscall, port } = (error ?? {}) as SystemError;
  if (syscall === 'listen') {
    const setting = port !== undefined && port === config.sshPort && port !== config.port ? 'SSH_PORT' : 'PORT';
    if (code === 'EADDRINUSE')
      return `port ${port} is already in use (another Forge?): stop what holds it, or set ${setting} to a free port`;
    if (code === 'EACCES') return `not allowed to listen on port ${port}: set ${setting} to 1024 or above`;
    if (code === 'EADDRNOTAVAIL') return `this machine has no address ${config.host}: change HOST`;
  }
  return databaseFailureLine(error, config);
}

/** One line for a database that cannot be opened or reached; undefined when it is not that. */
export function databaseFailureLine(error: unknown, config: Config): string | undefined {
  const { code, message } = (error ?? {}) as SystemError;
  if (config.databaseUrl) {
    const url = safeUrl(config.databaseUrl);
    const database = decodeURIComponent(url.pathname.slice(1)) || url.username;
    const server = `${url.hostname || 'localhost'}:${url.port || 5432}`;
    // PostgreSQL's SQLSTATE codes: invalid_catalog_name, invalid_password, invalid_authorization_specification.
    if (code === '3D000')
      return `the PostgreSQL database "${database}" does not exist on ${server}: create it (createdb ${database}) or change DATABASE_URL`;
    if (code === '28P01' || code === '28000')
      return `PostgreSQL at ${server} refused the login of "${url.username}" (${message}): change DATABASE_URL`;
    if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'ETIMEDOUT') {
      return `cannot reach PostgreSQL at ${server} (${code}): start it, or change DATABASE_URL`;
    }
    return undefined;
  }
  if (code === 'EACCES' || code === 'EROFS' || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY') {
    return `cannot write in DATA_DIR=${config.dataDir} (${code}): make it writable, or change DATA_DIR`;
  }
  return undefined;
}

/** DATABASE_URL as shown on the terminal: without its password. */
export function describeDatabase(config: Config): string {
  if (!config.databaseUrl) return `SQLite at ${config.dataDir}/forge.db`;
  const url = safeUrl(config.databaseUrl);
  url.password = '';
  return `PostgreSQL ${url.toString()}`;
}

function safeUrl(text: string): URL {
  try {
    return new URL(text);
  } catch {
    return new URL('postgres://localhost/');
  }
}
