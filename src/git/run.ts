import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { GitCommandError } from './errors';

/**
 * Variables that would point git at another repository, index or identity.
 * They leak in when the server itself runs under git (a hook, a test harness).
 */
const DROPPED_VARIABLE = /^GIT_(DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|NAMESPACE|COMMON_DIR|QUARANTINE_PATH|PROTOCOL|AUTHOR_\w+|COMMITTER_\w+|CONFIG_PARAMETERS|CONFIG_COUNT|CONFIG_KEY_\d+|CONFIG_VALUE_\d+|CEILING_DIRECTORIES|PREFIX|REPLACE_REF_BASE)$/;

let cleanEnvironment: NodeJS.ProcessEnv | undefined;

function baseEnvironment(): NodeJS.ProcessEnv {
  if (!cleanEnvironment) {
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) if (!DROPPED_VARIABLE.test(key)) env[key] = value;
    // Messages in English (we classify failures by state, but logs should read the same everywhere),
    // never a credential prompt on the server, and replace refs pushed by users never change what others read.
    Object.assign(env, { LC_ALL: 'C', LANGUAGE: 'C', GIT_TERMINAL_PROMPT: '0', GIT_NO_REPLACE_OBJECTS: '1' });
    cleanEnvironment = env;
  }
  return cleanEnvironment;
}

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

/** Starts `git` on a bare repository (or none when gitDir is null) with a clean environment. */
export function spawnGit(gitDir: string | null, args: string[], options: SpawnOptions = {}): ChildProcessWithoutNullStreams {
  const fullArgs = gitDir === null ? args : [`--git-dir=${gitDir}`, ...args];
  return spawn('git', fullArgs, {
    env: options.env ? { ...baseEnvironment(), ...options.env } : baseEnvironment(),
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
