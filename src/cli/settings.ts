/**
 * The settings every command reads from the environment (src/config.ts), for `forge --help` and
 * `forge serve --help`. The server and `forge admin` read the same ones: an admin command acts on
 * the instance these name.
 */
export const SETTINGS_HELP = `Settings (environment variables; the server and \`forge admin\` read the same):
  DATA_DIR                where repositories, files and the secret key live (default ./data)
  DATABASE_URL            postgres://user@host:port/database; empty: SQLite at DATA_DIR/forge.db
  PORT                    HTTP port (default 8080; 0: any free port)
  HOST                    address to listen on (default 0.0.0.0)
  EXTERNAL_URL            the URL users reach Forge at (default http://localhost:PORT)
  SSH_PORT                git over SSH (default 2222; 0: off; any: a free port)
  SSH_HOST                the host shown in SSH clone URLs (default: EXTERNAL_URL's host)
  INITIAL_ROOT_PASSWORD   root's password on the first start (default: generated and printed)
  INITIAL_ROOT_TOKEN      root's private token on the first start (default: generated and printed)
  LOG_LEVEL               fatal, error, warn, info (default), debug, trace or silent
  LFS_ENABLED             Git LFS (default true)
  MAX_LFS_OBJECT_SIZE_MB  largest LFS object (default 1024)
  MAX_ARTIFACTS_SIZE_MB   largest CI artifacts archive (default 100)
  HOOK_TIMEOUT_MS         time allowed to a web hook delivery (default 10000)
  JOB_MAX_ATTEMPTS        attempts of a background job before it is given up (default 10)
  JOB_RETRY_BASE_MS       first retry delay of a failed background job, doubled each time (default 1000)
  SMTP_URL                e-mail through this server: smtp://user:password@host:587 or smtps://…; empty: no e-mail
  EMAIL_FROM              the sender of Forge's mails (default forge@<EXTERNAL_URL's host>)`;
