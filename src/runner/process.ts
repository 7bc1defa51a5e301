import { spawn } from 'node:child_process';

/*
 * A build's processes run in a process group of their own (spawned detached), so that a cancel, a
 * timeout or a forced shutdown kills the whole group at once (`kill(-pid)`): the shell, and every
 * process the script started, in the foreground or not.
 */

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Where stdout and stderr go, interleaved as they come. */
  output: (chunk: Buffer) => void;
  /** Aborting kills the process group. */
  signal: AbortSignal;
  /** Input written to the process's stdin, then closed. */
  input?: string;
}

/** The exit code (a signal counts as failure, code 1 plus the signal's name), or 'aborted'. */
export type RunResult = { code: number; signal?: string } | 'aborted';

export function runProcess(command: string, args: string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve) => {
    if (options.signal.aborted) return resolve('aborted');
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    };
    options.signal.addEventListener('abort', killGroup, { once: true });
    child.stdout.on('data', options.output);
    child.stderr.on('data', options.output);
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
    let spawnError: Error | undefined;
    child.on('error', (error) => {
      spawnError = error;
    });
    // Background processes the script left behind would outlive the build and hold its output
    // open: the group goes when the shell does.
    child.on('exit', killGroup);
    // 'close' waits for the pipes: every byte of output is in the trace before the step ends.
    child.on('close', (code, signal) => {
      options.signal.removeEventListener('abort', killGroup);
      if (options.signal.aborted) return resolve('aborted');
      if (spawnError) {
        options.output(Buffer.from(`${spawnError.message}\n`));
        return resolve({ code: 127 });
      }
      resolve(signal ? { code: 1, signal } : { code: code ?? 1 });
    });
  });
}
