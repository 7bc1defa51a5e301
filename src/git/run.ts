import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { gitEnvironment } from './environment';
import { GitCommandError } from './errors';

export interface SpawnOptions {
  env?: Record<string, string>;
  signal?: AbortSignal;
}

export interface RunOptions extends SpawnOptions {
  input?: Buffer | string;
  /** Exit codes that are answers rather than failures (1 for "no such ref", for instance). */
  okCodes?: number[];
  /** Bytes of stdout kept before the process is killed and the call fails. */
  maxOutput?: number;
}

export interface RunResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}

const STDERR_KEPT = 64 * 1024;
const DEFAULT_MAX_OUTPUT = 256 * 1024 * 1024;

/** Starts `git` on a bare repository (or none when gitDir is null) in Forge's own environment (`environment.ts`). */
export function spawnGit(gitDir: string | null, args: string[], options: SpawnOptions = {}): ChildProcessWithoutNullStreams {
  const fullArgs = gitDir === null ? args : [`--git-dir=${gitDir}`, ...args];
  return spawn('git', fullArgs, {
    env: options.env ? { ...gitEnvironment(), ...options.env } : gitEnvironment(),
    stdio: ['pipe', 'pipe', 'pipe'],
    signal: options.signal,
  });
}

/** Runs git to completion and returns its output; rejects with GitCommandError on an unexpected exit code. */
export function runGit(gitDir: string | null, args: string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawnGit(gitDir, args, options);
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let overflow = false;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > (options.maxOutput ?? DEFAULT_MAX_OUTPUT)) {
        overflow = true;
        child.kill();
        return;
      }
      chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_KEPT) stderr += chunk.toString('utf8');
    });
    // git may exit before reading all its input; the exit code tells what happened.
    child.stdin.on('error', () => {});
    child.on('error', (error) => reject(error));
    child.on('close', (code) => {
      if (overflow) return reject(new GitCommandError(args, code, 'output too large'));
      if (code === null || !(options.okCodes ?? [0]).includes(code)) return reject(new GitCommandError(args, code, stderr));
      resolve({ stdout: Buffer.concat(chunks, size), stderr, code });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Runs git and returns stdout as text. */
export async function gitText(gitDir: string | null, args: string[], options: RunOptions = {}): Promise<string> {
  return (await runGit(gitDir, args, options)).stdout.toString('utf8');
}
