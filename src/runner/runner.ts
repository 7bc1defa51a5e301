import { retrying, type RunnerApi } from './api';
import { runBuild } from './build';
import type { JobPayload } from './payload';
import { readRegistration, writeRegistration, type Registration } from './config-file';

/*
 * `forge runner`: registers once (or verifies a runner authentication token made by a user), then
 * asks for jobs as gitlab-runner does over the runner API v4 and runs up to `concurrency` of them
 * at once. The server holds a request while nothing is pending (long polling), so the runner asks
 * again as soon as an answer comes, sending back the `X-GitLab-Last-Update` it was last given as
 * `last_update`; only an answer that came at once (a server that does not hold, a paused runner)
 * is followed by a pause. Stopping hangs up the held request and lets the jobs in hand finish;
 * stopping now kills them and reports them failed.
 */

export interface RunnerOptions {
  url: string;
  registrationToken?: string;
  /** A runner authentication token (`glrt-…`) made through `POST /api/v4/user/runners`: verified, not registered. */
  token?: string;
  description: string;
  tags: string[];
  concurrency: number;
  /** Absolute. */
  buildsDir: string;
  configFile: string;
}

export type Log = (line: string) => void;

const IDLE_POLL_MS = 500;
// An answer faster than this was not held by the server: the runner pauses before asking again.
const HELD_MS = 1000;

export class RunnerStartError extends Error {}

/** The registration kept in the config file, or a new one made with the registration token. */
export async function ensureRegistered(api: RunnerApi, options: RunnerOptions, log: Log): Promise<Registration> {
  const kept = readRegistration(options.configFile);
  if (kept) {
    if (kept.url !== options.url)
      throw new RunnerStartError(`${options.configFile} holds a runner of ${kept.url}, not of ${options.url}: use another --config`);
    log(`using runner #${kept.id} registered earlier (${options.configFile})`);
    return kept;
  }
  if (options.token) return verified(api, options, options.token, log);
  if (!options.registrationToken)
    throw new RunnerStartError(
      `no runner registered in ${options.configFile} yet: give --registration-token (npx forge admin runners-token on the server prints it) or --token glrt-…`,
    );
  // A registration that gets no answer is tried again (three times in all): starting must not hang on one lost request.
  const token = options.registrationToken;
  const answer = await retrying(
    () => api.register(token, { description: options.description, tags: options.tags }),
    (reply) => reply.status !== -1,
    1000,
    3,
  );
  if (answer.status === 403) throw new RunnerStartError('registration refused: forbidden (check the registration token)');
  if (answer.status !== 201 || typeof answer.body?.token !== 'string') {
    throw new RunnerStartError(
      `registration failed: ${answer.status === -1 ? `cannot reach ${options.url} (${answer.body})` : `the server answered ${answer.status}`}`,
    );
  }
  const registration = { url: options.url, id: Number(answer.body.id), token: answer.body.token as string };
  writeRegistration(options.configFile, registration);
  log(`registered runner #${registration.id}; its token is kept in ${options.configFile}`);
  return registration;
}

/** `gitlab-runner register --token glrt-…`: the token is checked with `POST runners/verify` (never `POST runners`) and kept. */
async function verified(api: RunnerApi, options: RunnerOptions, token: string, log: Log): Promise<Registration> {
  const answer = await retrying(
    () => api.verify(token),
    (reply) => reply.status !== -1,
    1000,
    3,
  );
  if (answer.status === 403) throw new RunnerStartError('the runner authentication token was refused: forbidden (check --token)');
  if (answer.status !== 200) {
    throw new RunnerStartError(
      `verifying the token failed: ${answer.status === -1 ? `cannot reach ${options.url} (${answer.body})` : `the server answered ${answer.status}`}`,
    );
  }
  // Servers before 16 answer 200 with no body: the id is then unknown (0).
  const registration = { url: options.url, id: Number(answer.body?.id ?? 0), token };
  writeRegistration(options.configFile, registration);
  log(`verified runner #${registration.id}; its token is kept in ${options.configFile}`);
  return registration;
}

export class Runner {
  private stopping = false;
  private readonly shutdown = new AbortController();
  private readonly freeSlots: number[];
  private readonly builds = new Set<Promise<void>>();
  private wake: (() => void) | undefined;
  private lastUpdate = '';
  // Hangs up the held job request when the runner stops.
  private readonly hangUp = new AbortController();

  constructor(
    private readonly api: RunnerApi,
    private readonly registration: Registration,
    private readonly options: RunnerOptions,
    private readonly log: Log,
  ) {
    this.freeSlots = Array.from({ length: options.concurrency }, (_, slot) => slot);
  }

  /** Runs until stopped; the process's exit code. */
  async run(): Promise<number> {
    this.log(`waiting for builds from ${this.options.url} (concurrency ${this.options.concurrency}, builds in ${this.options.buildsDir})`);
    let exitCode = 0;
    let failing = false;
    while (!this.stopping) {
      if (this.freeSlots.length === 0) {
        await this.pause();
        continue;
      }
      const asked = Date.now();
      const answer = await this.api.requestJob(this.registration.token, this.lastUpdate, this.hangUp.signal);
      if (this.stopping && answer.outcome !== 'job') break;
      if (answer.outcome === 'job') {
        failing = false;
        this.start(answer.job);
        continue;
      }
      if (answer.outcome === 'nothing') {
        this.lastUpdate = answer.lastUpdate ?? '';
        if (Date.now() - asked >= HELD_MS) continue;
      }
      if (answer.outcome === 'forbidden') {
        this.log(
          `ERROR: the server no longer knows runner #${this.registration.id} (403): remove ${this.options.configFile} and register again with --registration-token`,
        );
        exitCode = 1;
        this.stopNow();
        break;
      }
      // One line per streak of failures, not one per poll.
      if (answer.outcome === 'failed' && !failing)
        this.log(
          `WARNING: asking for a build failed (${answer.status === -1 ? 'the server cannot be reached' : `status ${answer.status}`}); trying again`,
        );
      failing = answer.outcome === 'failed';
      await this.pause(IDLE_POLL_MS);
    }
    await Promise.all(this.builds);
    return exitCode;
  }

  /** Stops asking for builds; those in hand finish. */
  stop(): void {
    if (this.stopping) return;
    this.stopping = true;
    this.log(
      this.builds.size > 0 ? `stopping: waiting for ${this.builds.size} build(s) to finish (signal again to stop them now)` : 'stopping',
    );
    this.hangUp.abort();
    this.wake?.();
  }

  /** Kills the builds in hand and reports them failed. */
  stopNow(): void {
    this.stop();
    if (this.builds.size > 0 && !this.shutdown.signal.aborted) this.log(`stopping now: failing ${this.builds.size} build(s)`);
    this.shutdown.abort();
  }

  private start(payload: JobPayload): void {
    const slot = this.freeSlots.shift()!;
    const started = Date.now();
    const { job_info: info, git_info: git } = payload;
    this.log(`build ${payload.id} started: project ${info.project_id}, job "${info.name}", ref ${git.ref}, sha ${git.sha.slice(0, 8)}`);
    const done = runBuild(payload, {
      api: this.api,
      runnerToken: this.registration.token,
      buildsDir: this.options.buildsDir,
      slot,
      shutdown: this.shutdown.signal,
    })
      .then(({ outcome, detail }) => {
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        this.log(`build ${payload.id} ${outcome === 'success' ? 'succeeded' : outcome} in ${seconds} s${detail ? `: ${detail}` : ''}`);
      })
      .catch((error) => this.log(`build ${payload.id} crashed the runner's handling: ${(error as Error).stack ?? error}`))
      .finally(() => {
        this.builds.delete(done);
        this.freeSlots.push(slot);
        this.freeSlots.sort((a, b) => a - b);
        this.wake?.();
      });
    this.builds.add(done);
  }

  /** Waits `ms` (or, without it, until a slot frees), cut short by a stop. */
  private pause(ms?: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(finish, ms);
      const self = this;
      function finish() {
        clearTimeout(timer);
        if (self.wake === finish) self.wake = undefined;
        resolve();
      }
      this.wake = finish;
    });
  }
}
