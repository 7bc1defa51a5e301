import { loadConfig, type Config } from '../config';
import type { RunningServer } from '../app';
import { projectUrls } from '../lib/urls';
import { CommandError, type Command } from './command';
import { SETTINGS_HELP } from './settings';
import { startFailureLine } from './start-errors';

/*
 * `forge serve` (and `forge` alone): runs the server in this one process until SIGTERM or SIGINT,
 * which stop it cleanly. The JSON log goes to stdout; the lines written for a person (where Forge
 * listens, root's credentials on the first start) go to stderr, so the log stays JSON.
 */

const say = (text: string) => process.stderr.write(`${text}\n`);

export const serve: Command = {
  name: 'serve',
  summary: 'run the server (what `forge` alone and `npm start` do)',
  help: `usage: forge serve

Runs Forge: the GitLab 8.12 API v3, the runner API, git over HTTP and SSH, and background work,
until SIGTERM or SIGINT. On the first start over an empty database it creates the administrator
\`root\` once the ports are held, and prints its password and private token, once
(\`forge admin reset-password root\` gives new ones). It migrates the database first.

The JSON log goes to stdout; the lines for a person go to stderr.

${SETTINGS_HELP}`,
  async run() {
    const config = loadConfig();
    // Before anything is printed: whoever reads "listening" may send SIGTERM at once.
    const signals = stopOnSignals();
    let running: RunningServer;
    try {
      // Loaded here, not at the top: every other command (`forge runner` above all) starts without the server's code.
      const { startServer } = await import('../app');
      running = await startServer(config);
    } catch (error) {
      const line = startFailureLine(error, config);
      if (line !== undefined) throw new CommandError(line);
      throw error;
    }
    const runnersToken = running.root ? (await running.services.settings.get()).runners_registration_token : '';
    greet(config, running, runnersToken);
    return await signals.stopped(running);
  },
};

function greet(config: Config, { root }: RunningServer, runnersToken: string): void {
  const ssh =
    config.sshPort === null
      ? ' (git over SSH is off: SSH_PORT=0)'
      : `, git over SSH on port ${config.sshPort} (clone URLs: ${projectUrls(config, { path: '<project>', namespace: { path: '<namespace>' } }).ssh})`;
  say(`Forge is listening on ${config.externalUrl}${ssh}`);
  if (!root) return;
  // Printed once, on the start that made root; `forge admin reset-password root` makes new ones.
  say(
    [
      '',
      'Forge created the administrator account:',
      `  username:      root`,
      `  password:      ${root.passwordGenerated ? root.password : '(INITIAL_ROOT_PASSWORD)'}`,
      `  private token: ${root.tokenGenerated ? root.token : '(INITIAL_ROOT_TOKEN)'}`,
      `Try: curl -H 'PRIVATE-TOKEN: ${root.tokenGenerated ? root.token : '<token>'}' ${config.externalUrl}/api/v3/user`,
      `Lost them? npx forge admin reset-password root`,
      '',
      `Shared runners registration token: ${runnersToken} (later: npx forge admin runners-token)`,
      `Run CI on this machine: npx forge runner --url ${config.externalUrl} --registration-token=${runnersToken}`,
      '',
    ].join('\n'),
  );
}

/**
 * Listens for SIGTERM and SIGINT from now on; a signal that arrives while the server starts is kept
 * and acted on once it has started. `stopped` resolves with the exit code once a signal has stopped
 * the server: requests in flight finish first.
 */
function stopOnSignals(): { stopped(running: RunningServer): Promise<number> } {
  let received: string | undefined;
  let act: ((signal: string) => void) | undefined;
  const onSignal = (signal: string) => {
    if (received) return;
    received = signal;
    act?.(signal);
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  return {
    stopped: ({ server, close }) =>
      new Promise((resolve) => {
        act = (signal) => {
          server.log.info({ signal }, 'shutting down');
          // Requests in flight get 30 seconds; a client that never reads its download does not hold the process.
          setTimeout(() => {
            server.log.warn('requests still in flight after 30 s: exiting');
            resolve(1);
          }, 30_000).unref();
          // Stop accepting, let requests in flight finish, then stop background work and the database.
          close().then(
            () => resolve(0),
            (error) => {
              server.log.error({ err: error }, 'stopping failed');
              resolve(1);
            },
          );
        };
        if (received) act(received);
      }),
  };
}
