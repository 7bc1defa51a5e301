import { loadConfig } from '../../src/config';
import { startServer } from '../../src/app';
import type { TestApp } from './app';

export interface PeerServer {
  url: string;
  /** Stops this server only: the database and the data directory belong to the app it joined. */
  close(): Promise<void>;
}

/**
 * A second Forge server over the same database and data directory as `app`, on its own port, as
 * a deployment runs several behind a load balancer. Its migrations and root user find theirs done.
 */
export async function startPeerServer(app: TestApp): Promise<PeerServer> {
  const config = loadConfig({
    DATA_DIR: app.dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: app.databaseUrl,
    INITIAL_ROOT_PASSWORD: 'rootpassword',
    INITIAL_ROOT_TOKEN: app.rootToken,
    JOB_RETRY_BASE_MS: '200',
    SSH_PORT: '0',
  });
  const running = await startServer(config, { logger: process.env.TEST_LOG ? { level: 'debug' } : false });
  return { url: `http://127.0.0.1:${config.port}`, close: () => running.close() };
}
