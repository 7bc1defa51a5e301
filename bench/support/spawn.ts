import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

/** git as a user would run it: no global or system configuration, English, never a prompt. */
export const gitEnv: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_TERMINAL_PROMPT: '0',
  LC_ALL: 'C',
};

export interface TimedRun {
  ms: number;
  /** Bytes written to stdout, read and dropped as a client would read them. */
  bytes: number;
  stdout?: string;
}

/**
 * Spawns a command and waits for it to exit, timed with the same clock as `timedRequest`.
 * Fails on a non-zero exit: a benchmark of a failing command measures nothing.
 */
export function timeSpawn(
  command: string,
  args: string[],
  options: { cwd?: string; input?: NodeJS.ReadableStream; keepOutput?: boolean } = {},
): Promise<TimedRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: options.cwd, env: gitEnv, stdio: [options.input ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    let bytes = 0;
    const kept: Buffer[] = [];
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (options.keepOutput) kept.push(chunk);
    });
    child.stderr!.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
    if (options.input) options.input.pipe(child.stdin!);
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) return reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${stderr}`));
      resolve({ ms, bytes, stdout: options.keepOutput ? Buffer.concat(kept).toString() : undefined });
    });
  });
}

export const git = (cwd: string, ...args: string[]) => timeSpawn('git', args, { cwd, keepOutput: true }).then((run) => run.stdout!.trim());
