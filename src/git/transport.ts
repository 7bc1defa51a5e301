import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { fastForwardHooksDir } from './push-hook';
import { refValues } from './refs';
import { runGit, spawnGit } from './run';

export type GitService = 'upload-pack' | 'receive-pack';

/** A running `git upload-pack`/`receive-pack`, streamed by a transport. */
export type GitServiceProcess = ChildProcessWithoutNullStreams;

/**
 * The `GIT_PROTOCOL` value a client asked for (`version=2`), kept only when it is made of the
 * characters git's own keys and values use. Pushes ignore it: receive-pack speaks v0 only, and
 * its advertisement must keep the v0 framing.
 */
export function protocolFor(service: GitService, header: string | undefined): string | undefined {
  if (service !== 'upload-pack' || header === undefined || !/^[A-Za-z0-9=:._-]{1,200}$/.test(header)) return undefined;
  return header;
}

/** Whether the client will get a protocol v2 answer (no `# service=` header on the advertisement). */
export const speaksV2 = (protocol: string | undefined): boolean => protocol?.split(':').includes('version=2') === true;

export interface FastForwardOnly {
  /** Full ref names that may only move forward in this push. */
  refs: string[];
  /** What the pusher reads when one of them would not. */
  message: string;
}

/** `git <service> --stateless-rpc`: reads the client's request on stdin, answers on stdout. */
export function serviceProcess(repoPath: string, service: GitService, protocol: string | undefined): ChildProcessWithoutNullStreams {
  return spawnGit(null, serviceArgs(repoPath, service, false), { env: protocol ? { GIT_PROTOCOL: protocol } : undefined });
}

/**
 * A whole conversation of `git upload-pack` (advertisement included) or `git upload-archive`, for
 * a transport that carries one session per process (SSH). Pushes over SSH use the stateless
 * receive-pack below, so that their ref updates are judged before git reads them.
 */
export function sessionProcess(
  repoPath: string,
  command: 'upload-pack' | 'upload-archive',
  protocol: string | undefined,
): ChildProcessWithoutNullStreams {
  const args = command === 'upload-pack' ? ['upload-pack', '--strict', repoPath] : ['upload-archive', repoPath];
  return spawnGit(null, args, { env: protocol ? { GIT_PROTOCOL: protocol } : undefined });
}

/** `git receive-pack --stateless-rpc`, refusing non-fast-forward updates of the given refs. */
export async function receivePackProcess(repoPath: string, fastForwardOnly?: FastForwardOnly): Promise<ChildProcessWithoutNullStreams> {
  if (!fastForwardOnly || fastForwardOnly.refs.length === 0) return serviceProcess(repoPath, 'receive-pack', undefined);
  const hooks = await fastForwardHooksDir();
  return spawnGit(null, ['-c', `core.hooksPath=${hooks}`, ...serviceArgs(repoPath, 'receive-pack', false)], {
    env: {
      FORGE_FAST_FORWARD_ONLY: fastForwardOnly.refs.join(' '),
      FORGE_FAST_FORWARD_MESSAGE: fastForwardOnly.message.replace(/[\r\n]+/g, ' '),
    },
  });
}

/** The ref advertisement, whole (it is small next to a pack, and a failure can still be a status). */
export async function advertisement(repoPath: string, service: GitService, protocol: string | undefined): Promise<Buffer> {
  return (await runGit(null, serviceArgs(repoPath, service, true), { env: protocol ? { GIT_PROTOCOL: protocol } : undefined })).stdout;
}

function serviceArgs(repoPath: string, service: GitService, advertise: boolean): string[] {
  return [
    service,
    '--stateless-rpc',
    ...(advertise ? ['--advertise-refs'] : []),
    ...(service === 'upload-pack' ? ['--strict'] : []),
    repoPath,
  ];
}

export interface PushedUpdate {
  oldId: string;
  newId: string;
  ref: string;
}

/** The updates of a push that took effect: the ref now has the new id (or is gone, for a deletion). */
export async function appliedUpdates<T extends PushedUpdate>(repoPath: string, updates: readonly T[]): Promise<T[]> {
  const current = await refValues(
    repoPath,
    updates.map((update) => update.ref),
  );
  return updates.filter((update) => (/^0+$/.test(update.newId) ? !current.has(update.ref) : current.get(update.ref) === update.newId));
}
