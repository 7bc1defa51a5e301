import { spawn, type ChildProcess } from 'node:child_process';
import type { TestApp } from './app';
import { eventually } from './eventually';
import { forgeArgs, ROOT } from './node-entry';

export interface ServerProcess {
  url: string;
  close(): Promise<void>;
}

/**
 * `forge serve` in a process of its own over the same database and data directory as `app`, as a
 * deployment runs several: nothing kept in memory is shared with the test's own server.
 */
export async function startServerProcess(app: TestApp): Promise<ServerProcess> {
  const env = {
    ...process.env,
    DATA_DIR: app.dataDir,
    DATABASE_URL: app.databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    EXTERNAL_URL: '',
    SSH_PORT: '0',
    INITIAL_ROOT_PASSWORD: 'rootpassword',
    INITIAL_ROOT_TOKEN: app.rootToken,
    LOG_LEVEL: 'silent',
  };
  const child: ChildProcess = spawn(process.execPath, [...forgeArgs(), 'serve'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const match = await eventually(
    () => output.match(/listening on (http:\/\/[^\s,]+)/) ?? (child.exitCode !== null ? 'exited' : undefined),
    {
      message: `forge serve to listen (output:\n${output})`,
    },
  );
  if (match === 'exited') throw new Error(`forge serve exited: ${output}`);
  return {
    url: match[1].replace('localhost', '127.0.0.1'),
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
