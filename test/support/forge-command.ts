import { spawn, type ChildProcess } from 'node:child_process';
import { eventually } from './eventually';
import { forgeArgs, ROOT } from './node-entry';

/*
 * The real `forge` command line in a process of its own (src/main as node-entry.ts runs it, as
 * server-process.ts starts it), with only the environment a test gives it besides PATH and HOME:
 * settings a developer has exported do not leak in.
 */

export { ROOT };

export interface Finished {
  code: number | null;
  /** The signal that ended it, if one did. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function forgeEnvironment(env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'info', ...env };
}

/** Runs `forge <args>` to its end. */
export async function runForge(args: string[], env: Record<string, string>): Promise<Finished> {
  const child = startForge(args, env);
  return child.finished;
}

export interface RunningForge {
  child: ChildProcess;
  /** What it wrote so far. */
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves with the first match of `pattern` in stderr, or fails if the process ends first. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  finished: Promise<Finished>;
  /** SIGKILL to every process it started that is still there. */
  killGroup(): void;
}

/** Starts `forge <args>` (or any `command`, e.g. npm) without waiting for it. */
export function startForge(
  args: string[],
  env: Record<string, string>,
  command: { file: string; args: string[] } = { file: process.execPath, args: forgeArgs() },
): RunningForge {
  // A process group of its own: `killGroup` can end whatever it started, should a test fail half-way.
  const child = spawn(command.file, [...command.args, ...args], {
    cwd: ROOT,
    env: forgeEnvironment(env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const finished = new Promise<Finished>((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  let ended = false;
  void finished.then(() => (ended = true));
  return {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    finished,
    killGroup() {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    },
    async waitFor(pattern) {
      const match = await eventually(() => stderr.match(pattern) ?? (ended ? 'ended' : undefined), {
        message: `${pattern} in the output of forge ${args.join(' ')}`,
      });
      if (match === 'ended') throw new Error(`forge ${args.join(' ')} ended before printing ${pattern}:\n${stdout}\n${stderr}`);
      return match;
    },
  };
}
