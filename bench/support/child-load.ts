import { spawn } from 'node:child_process';

/**
 * Runs a load generator script in a child process, so that it never shares the server's event
 * loop: the plan goes in as argv (JSON), the report comes back as the last line of its stdout.
 */
export function runInChild<Plan, Report>(script: string, plan: Plan): Promise<Report> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(plan)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited with ${code}: ${stderr}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop()!) as Report);
    });
  });
}
