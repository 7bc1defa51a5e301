import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadPlan, LoadReport } from './runner-client';

const client = fileURLToPath(new URL('./runner-client.ts', import.meta.url));

/**
 * Runs one load plan in a child process (`runner-client.ts`), so that the load generator never
 * shares the server's event loop, and answers its report.
 */
export function runLoad(plan: LoadPlan): Promise<LoadReport> {
  return new Promise((resolve, reject) => {
    // The plan holds a few hundred tokens at most: argv carries it.
    const child = spawn(process.execPath, ['--import', 'tsx', client, JSON.stringify(plan)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited with ${code}: ${stderr}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop()!) as LoadReport);
    });
  });
}
