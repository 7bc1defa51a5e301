import type { AddressInfo } from 'node:net';
// ssh2 is CommonJS: its named exports are not visible to ES modules.
import ssh2, { type Connection, type ServerChannel } from 'ssh2';
import { fingerprintOfBlob } from '../services/users/keys';
import { GIT_ACCESS_REFUSALS } from '../services/repository/git-access';
import { hostKey } from './host-key';
import { runSshCommand, type SshSessionDeps } from './session';
import { refuse } from './channel';

export interface SshServerOptions extends SshSessionDeps {
  dataDir: string;
  host: string;
  /** 0: a port the system picks. */
  port: number;
}

export interface RunningSshServer {
  port: number;
  /** Connections open, and git commands running on them (metrics). */
  stats(): { connections: number; sessions: number };
  /** Stops accepting and ends every connection. */
  close(): Promise<void>;
}

/** An unauthenticated connection gets this long to authenticate. */
const LOGIN_GRACE_MS = 30_000;
/** Only what git and git-lfs send; anything longer is not theirs. */
const MAX_ENV_VALUE = 200;

/**
 * Git over SSH: public-key authentication only (users' keys and deploy keys), then one `exec`
 * per session, run by `session.ts`. No shell, no port forwarding, no subsystems: ssh2 refuses
 * every channel and request nobody listens for.
 */
export async function startSshServer(options: SshServerOptions): Promise<RunningSshServer> {
  const connections = new Set<Connection>();
  let sessions = 0;
  const server = new ssh2.Server({ hostKeys: [hostKey(options.dataDir)], ident: 'Forge' }, (client) => {
    connections.add(client);
    let fingerprint: string | undefined;
    const grace = setTimeout(() => client.end(), LOGIN_GRACE_MS);
    client.on('close', () => {
      clearTimeout(grace);
      connections.delete(client);
    });
    // A client that vanishes mid-handshake is nothing to report.
    client.on('error', () => {});
    client.on('authentication', (ctx) => {
      if (ctx.method !== 'publickey') return ctx.reject(['publickey']);
      const offered = fingerprintOfBlob(ctx.key.data);
      void options.git.sshCaller(offered).then(
        (caller) => {
          // A blocked user's key signs in, to be told so by the command.
          if ('refusal' in caller && caller.refusal !== GIT_ACCESS_REFUSALS.blocked) return ctx.reject(['publickey']);
          // Without a signature the client only asks whether this key would do.
          if (!ctx.signature) return ctx.accept();
          const key = ssh2.utils.parseKey(ctx.key.data);
          if (key instanceof Error || key.verify(ctx.blob!, ctx.signature, ctx.hashAlgo) !== true) return ctx.reject(['publickey']);
          fingerprint = offered;
          ctx.accept();
        },
        (error) => {
          options.log.error({ err: error }, 'SSH authentication failed');
          ctx.reject(['publickey']);
        },
      );
    });
    client.on('ready', () => {
      clearTimeout(grace);
      client.on('session', (acceptSession) => {
        const session = acceptSession();
        let protocol: string | undefined;
        session.on('env', (accept, reject, info) => {
          // git sends GIT_PROTOCOL (SendEnv) to ask for protocol v2; nothing else is taken.
          if (info.key === 'GIT_PROTOCOL' && info.val.length <= MAX_ENV_VALUE) {
            protocol = info.val;
            accept?.();
          } else {
            reject?.();
          }
        });
        // A terminal may be asked for before a shell; what is said then is the same.
        session.on('pty', (accept) => accept?.());
        session.on('shell', (accept) => refuse(accept(), 'Hi! You have authenticated, but this server provides no shell access: use git.'));
        session.on('exec', (accept, _reject, info) => {
          const channel = accept();
          sessions++;
          void runSshCommand(options, { fingerprint: fingerprint!, command: info.command, protocol }, channel)
            .catch((error) => {
              options.log.error({ err: error, command: info.command }, 'SSH command failed');
              failed(channel);
            })
            .finally(() => sessions--);
        });
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    stats: () => ({ connections: connections.size, sessions }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const connection of connections) connection.end();
      }),
  };
}

function failed(channel: ServerChannel): void {
  if (!channel.destroyed) refuse(channel, 'An internal error occurred; it has been logged.');
}
