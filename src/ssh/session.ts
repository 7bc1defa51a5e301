import type { Readable } from 'node:stream';
import type { ServerChannel } from 'ssh2';
import { advertisement, appliedUpdates, protocolFor, receivePackProcess, sessionProcess, type GitServiceProcess } from '../git/transport';
import { readPushCommands, refusalReport } from '../git/pkt-line';
import { repositoryExists } from '../git/repositories';
import { PUSH_REFUSALS } from '../services/repository/push-rules';
import { accessRefusal, GIT_ACCESS_REFUSALS, type GitAccessService, type GitCaller } from '../services/repository/git-access';
import type { Project } from '../services/projects/types';
import type { Logger } from '../lib/logger';
import { parseSshCommand, type GitSshService } from './command';
import { finish, refuse } from './channel';
import { lfsAuthenticate, type LfsAuthenticator } from './lfs-authenticate';

/** What a command run over SSH needs from the rest of Forge. */
export interface SshSessionDeps {
  git: GitAccessService;
  repoPath: (projectId: number) => string;
  lfs: LfsAuthenticator;
  /** The external URL as it is now (settled once HTTP listens). */
  externalUrl: () => string;
  log: Logger;
}

/** What the client asked for on this connection: its key, and the environment it sent (GIT_PROTOCOL). */
export interface SshRequest {
  fingerprint: string;
  command: string;
  protocol: string | undefined;
}

/**
 * Runs one `exec` request: the command is read strictly (`command.ts`), its caller and access are
 * GitAccessService's, exactly as over HTTP; refusals go to stderr with exit status 1.
 */
export async function runSshCommand(deps: SshSessionDeps, request: SshRequest, channel: ServerChannel): Promise<void> {
  const command = parseSshCommand(request.command);
  if ('refusal' in command) return refuse(channel, command.refusal);
  const caller = await deps.git.sshCaller(request.fingerprint);
  if ('refusal' in caller) return refuse(channel, caller.refusal);
  const project = await deps.git.findProject(command.path);
  if (!project) return refuse(channel, GIT_ACCESS_REFUSALS.notFound);
  if (command.kind === 'lfs-authenticate') return lfsAuthenticate(deps, caller, project, command.operation, channel);

  const action = command.service === 'receive-pack' ? 'write' : 'read';
  const refusal = accessRefusal(caller, await deps.git.access(caller, project, action), action);
  if (refusal) return refuse(channel, refusal);
  const repoPath = deps.repoPath(project.id);
  // A project whose repository is not there (yet) has nothing to serve, as over HTTP.
  if (!(await repositoryExists(repoPath))) return refuse(channel, GIT_ACCESS_REFUSALS.notFound);
  deps.log.info({ caller: describe(caller), project: command.path, service: command.service }, 'git over SSH');
  if (command.service === 'receive-pack') return receivePack(deps, caller, project, repoPath, channel);
  const protocol = command.service === 'upload-pack' ? protocolFor('upload-pack', request.protocol) : undefined;
  return serve(channel, sessionProcess(repoPath, command.service, protocol), command.service, channel, deps.log);
}

/**
 * A push: the ref advertisement, then the client's ref updates, judged by the same push rule as
 * over HTTP before git sees the pack; refused, the client reads the same report (`git push`
 * prints each reason); accepted, the stateless receive-pack takes the rest, as over HTTP.
 */
async function receivePack(
  deps: SshSessionDeps,
  caller: GitCaller,
  project: Project,
  repoPath: string,
  channel: ServerChannel,
): Promise<void> {
  channel.write(await advertisement(repoPath, 'receive-pack', undefined));
  // A client that goes away without a word leaves nothing to wait for.
  const gone = new Promise<undefined>((resolve) => channel.once('close', () => resolve(undefined)));
  const push = await Promise.race([readPushCommands(channel), gone]);
  if (!push) return;
  if (push.malformed) return refuse(channel, "The push is not in git's pkt-line format.");
  if (!push.complete) return refuse(channel, 'The list of ref updates is too large.');
  // Nothing to update (the client had nothing to push): it sent a flush and waits for the end.
  if (push.updates.length === 0) return finish(channel, 0);
  const verdict = await deps.git.checkPush(caller, project, push.updates);
  if (verdict.rejections.length > 0) {
    const reasons = new Map(verdict.rejections.map((rejection) => [rejection.ref, rejection.message]));
    channel.write(
      refusalReport({
        capabilities: push.capabilities,
        updates: push.updates,
        reasons,
        messages: verdict.rejections.map((r) => r.message),
      }),
    );
    // The client may still be sending its pack: read it away until it hangs up, having read the report.
    await Promise.race([drain(push.body), gone]);
    return finish(channel, 0);
  }
  const fastForwardOnly =
    verdict.fastForwardOnly.length > 0 ? { refs: verdict.fastForwardOnly, message: PUSH_REFUSALS.protectedForce } : undefined;
  const child = await receivePackProcess(repoPath, fastForwardOnly);
  await serve(push.body, child, 'receive-pack', channel, deps.log, async () => {
    const applied = await appliedUpdates(repoPath, push.updates);
    if (applied.length > 0) await deps.git.afterPush(caller, project, applied);
  });
}

/**
 * Streams `input` into git and git's output back to the client; the exit status is git's, sent
 * once `afterExit` (recording a push) has run, so `git push` returns once the push is recorded.
 */
function serve(
  input: Readable,
  child: GitServiceProcess,
  service: GitSshService,
  channel: ServerChannel,
  log: Logger,
  afterExit?: () => Promise<void>,
): Promise<void> {
  return new Promise((resolve) => {
    // git stops reading once it is done; the EPIPE of later writes says nothing its exit does not.
    child.stdin.on('error', () => {});
    input.on('error', () => stop(child));
    input.pipe(child.stdin);
    child.stdout.pipe(channel, { end: false });
    child.stderr.pipe(channel.stderr, { end: false });
    // A client gone away stops git: nobody will read what it says.
    channel.once('close', () => stop(child));
    child.once('error', (error) => log.error({ err: error, service }, 'git over SSH could not start'));
    child.once('close', (code) => {
      void (afterExit ? afterExit() : Promise.resolve())
        .catch((error) => log.error({ err: error }, 'after push failed'))
        .then(() => {
          if (code !== 0) log.warn({ service, code }, 'git service failed');
          finish(channel, code ?? 1);
          resolve();
        });
    });
  });
}

function stop(child: GitServiceProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill();
}

function drain(stream: Readable): Promise<void> {
  return new Promise((resolve) => {
    stream
      .on('end', resolve)
      .on('error', () => resolve())
      .on('close', () => resolve());
    stream.resume();
  });
}

function describe(caller: GitCaller): string {
  return caller.kind === 'user'
    ? caller.user.username
    : caller.kind === 'deploy_key'
      ? `deploy key ${caller.keyId}`
      : `build of project ${caller.projectId}`;
}
