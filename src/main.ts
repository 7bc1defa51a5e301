import { loadConfig, ConfigError } from './config';
import { openDatabase } from './db/index';
import { migrateToLatest } from './db/migrate';
import { startServer } from './app';

async function serve(): Promise<void> {
  const config = loadConfig();
  const { server, root, close } = await startServer(config);
  if (root) {
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

const commands: Record<string, () => Promise<void>> = { serve, migrate };

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
