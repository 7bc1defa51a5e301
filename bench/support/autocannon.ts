import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

export interface LoadResult {
  requestsPerSecond: number;
  /** autocannon records whole milliseconds. */
  p50: number;
  p99: number;
  mean: number;
  requests: number;
  non2xx: number;
  errors: number;
}

const cli = createRequire(import.meta.url).resolve('autocannon');

/**
 * Runs autocannon in its own process, so that the load generator never shares the server's event
 * loop: on a 2-core machine the server keeps one core, the client the other.
 */
export function loadTest(
  url: string,
  options: { connections: number; seconds: number; headers?: Record<string, string> },
): Promise<LoadResult> {
  const args = [cli, '--json', '--no-progress', '-c', String(options.connections), '-d', String(options.seconds)];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}=${value}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}: ${stderr.slice(0, 500)}`));
      const result = JSON.parse(stdout.trim().split('\n').pop()!);
      resolve({
        requestsPerSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        mean: result.latency.average,
        requests: result.requests.total,
        non2xx: result.non2xx,
        errors: result.errors,
      });
    });
  });
}
