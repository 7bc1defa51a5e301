import { loadConfig, ConfigError } from './config';
import { openDatabase } from './db/index';
import { migrateToLatest } from './db/migrate';
import { startServer } from './app';
import { projectUrls } from './lib/urls';
import { SecretBox } from './lib/secrets';
import { SettingsService } from './services/settings/settings';
import type { ServiceContext } from './services/context';

async function serve(): Promise<void> {
  const config = loadConfig();
  const { server, root, services, close } = await startServer(config);
  console.log(`Forge is listening on ${config.externalUrl}${config.sshPort === null ? ' (git over SSH is off: SSH_PORT=0)' : `, git over SSH on port ${config.sshPort} (clone URLs: ${projectUrls(config, { path: '<project>', namespace: { path: '<namespace>' } }).ssh})`}`);
  if (root) {
    const runnersToken = (await services.settings.get()).runners_registration_token;
    // Printed once, on the first start only: nothing else ever shows generated credentials.
    console.log(
      [
        '',
        'Forge created the administrator account:',
        `  username:      root`,
        `  password:      ${root.passwordGenerated ? root.password : '(INITIAL_ROOT_PASSWORD)'}`,
        `  private token: ${root.tokenGenerated ? root.token : '(INITIAL_ROOT_TOKEN)'}`,
        `Try: curl -H 'PRIVATE-TOKEN: ${root.tokenGenerated ? root.token : '<token>'}' ${config.externalUrl}/api/v3/user`,
        '',
        `Shared runners registration token: ${runnersToken} (later: npx forge admin runners-token)`,
        `Run CI on this machine: npx forge runner --url ${config.externalUrl} --registration-token ${runnersToken}`,
        '',
      ].join('\n'),
    );
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.log.info({ signal }, 'shutting down');
    // Requests in flight get 30 seconds; a client that never reads its download does not hold the process.
    setTimeout(() => {
      server.log.warn('requests still in flight after 30 s: exiting');
      process.exit(1);
    }, 30_000).unref();
    // Stop accepting, let requests in flight finish, then stop background work and the database.
    await close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

async function migrate(): Promise<void> {
  const config = loadConfig();
  const database = openDatabase(config);
  await migrateToLatest(database);
  await database.db.destroy();
  console.log('database migrated');
}

/** `forge admin runners-token`: the shared runners' registration token, for `gitlab-ci-multi-runner register`. */
async function admin(): Promise<void> {
  const what = process.argv[3];
  if (what !== 'runners-token') {
    console.error('usage: forge admin runners-token');
    process.exit(2);
  }
  const config = loadConfig();
  const database = openDatabase(config);
  await migrateToLatest(database);
  // The settings need only the database and the secret key; nothing else is started.
  const ctx = { config, db: database.db, dialect: database.dialect, secrets: SecretBox.open(config.dataDir) } as ServiceContext;
  const settings = await new SettingsService(ctx).get();
  await database.db.destroy();
  console.log(settings.runners_registration_token);
}

/** `forge runner …`: Forge's own CI runner, a client of the runner API (src/runner/). */
async function runner(): Promise<void> {
  const { runnerCommand } = await import('./runner/cli');
  process.exit(await runnerCommand(process.argv.slice(3)));
}

const commands: Record<string, () => Promise<void>> = { serve, migrate, admin, runner };

const name = process.argv[2] ?? 'serve';
const command = commands[name];
if (!command) {
  console.error(`usage: forge <${Object.keys(commands).join('|')}>`);
  process.exit(2);
}
command().catch((error) => {
  console.error(error instanceof ConfigError ? `configuration error: ${error.message}` : error);
  process.exit(1);
});
