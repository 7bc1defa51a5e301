import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { runClient, tempDir, type GitResult } from './git';

/** A key pair made by the real ssh-keygen: the private key's file and the public key's text. */
export interface SshKeyPair {
  privateKeyFile: string;
  publicKey: string;
}

export function sshKeyPair(type: 'ed25519' | 'rsa' | 'ecdsa' = 'ed25519'): Promise<SshKeyPair> {
  const file = path.join(tempDir(), 'id');
  return new Promise((resolve, reject) => {
    execFile('ssh-keygen', ['-q', '-t', type, '-N', '', '-C', `forge-test-${type}`, '-f', file], (error) => {
      if (error) return reject(error);
      resolve({ privateKeyFile: file, publicKey: fs.readFileSync(`${file}.pub`, 'utf8').trim() });
    });
  });
}

/** The real ssh client with only this key, trusting any host key, never prompting. */
export function sshCommand(key: SshKeyPair, port: number): string[] {
  return [
    'ssh',
    '-i',
    key.privateKeyFile,
    '-p',
    String(port),
    '-o',
    'StrictHostKeyChecking=no',
    '-o',
    'UserKnownHostsFile=/dev/null',
    '-o',
    'IdentitiesOnly=yes',
    '-o',
    'BatchMode=yes',
    '-o',
    'LogLevel=ERROR',
    '-F',
    '/dev/null',
  ];
}

export const sshCloneUrl = (port: number, pathWithNamespace: string): string => `ssh://git@127.0.0.1:${port}/${pathWithNamespace}.git`;

/** Runs `ssh git@127.0.0.1 <command>` (the command is one string, as a shell would pass it), with `input` on its stdin when given. */
export function ssh(key: SshKeyPair, port: number, command?: string, input?: Buffer | string): Promise<GitResult> {
  const [program, ...args] = sshCommand(key, port);
  return run(program, [...args, 'git@127.0.0.1', ...(command === undefined ? [] : [command])], undefined, {}, input);
}

/** The real git client talking SSH with this key (GIT_SSH_COMMAND), never prompting, with a fixed identity. */
export function sshGit(key: SshKeyPair, port: number, args: string[], cwd?: string): Promise<GitResult> {
  return run('git', ['-c', 'protocol.version=2', ...args], cwd, { GIT_SSH_COMMAND: sshCommand(key, port).join(' ') });
}

function run(program: string, args: string[], cwd?: string, env: Record<string, string> = {}, input?: Buffer | string): Promise<GitResult> {
  return runClient(program, args, { cwd, env, input, timeoutMs: 120_000 });
}
