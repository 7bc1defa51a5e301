import fs from 'node:fs';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { setTimeout as sleep } from 'node:timers/promises';
import type { JobPayload } from './payload';

/*
 * The runner API v4 as gitlab-runner speaks it (its `network/gitlab.go`): JSON bodies with `info`
 * and the runner's token, `Accept: application/json` where an answer is decoded, `last_update`
 * carried back from `X-GitLab-Last-Update`, trace parts as `PATCH jobs/:id/trace` with an inclusive
 * `Content-Range` and `JOB-TOKEN`, the job's state with `PUT jobs/:id`, artifacts as a chunked
 * multipart `file` with `artifact_format`/`artifact_type`/`expire_in` in the query. Only HTTP: the
 * runner knows nothing else of the server.
 */

export const FORGE_RUNNER_VERSION = '0.2.0';

const USER_AGENT = `forge-runner ${FORGE_RUNNER_VERSION} (node ${process.versions.node}; ${process.platform}/${process.arch})`;

export const RUNNER_INFO = {
  name: 'forge-runner',
  version: FORGE_RUNNER_VERSION,
  revision: `forge-${FORGE_RUNNER_VERSION}`,
  platform: process.platform,
  architecture: os.arch(),
  executor: 'shell',
  shell: 'bash',
  features: {
    variables: true,
    image: false,
    services: false,
    artifacts: true,
    cache: true,
    refspecs: true,
    trace_reset: false,
    trace_checksum: true,
    trace_size: true,
    cancelable: true,
  },
};

/** `<url without trailing "/">/api/v4/`. */
export function runnerBaseUrl(configured: string): string {
  return `${configured.replace(/\/+$/, '')}/api/v4/`;
}

/** What one call came back with; status -1 is a transport error, as the runner's client reports it. */
export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: a JSON answer of the server, read field by field by each caller
  body: any;
}

const transportError = (error: unknown): Answer => ({
  status: -1,
  headers: new Headers(),
  body: String((error as Error)?.message ?? error),
});

export type JobRequest = { outcome: 'job'; job: JobPayload } | { outcome: 'nothing' | 'forbidden' | 'failed'; status: number };

/** A job's credentials: its id and its own token. */
export interface JobCredentials {
  id: number;
  token: string;
}

/** What gitlab-runner makes of a trace PATCH's answer (`common.PatchTraceResult`). */
export interface PatchResult {
  state: 'sent' | 'range-mismatch' | 'abort' | 'failed';
  /** The end of the server's `Range`: where the next part starts. */
  offset?: number;
  cancelRequested: boolean;
  /** `X-GitLab-Trace-Update-Interval`, in milliseconds, when the server set it. */
  updateIntervalMs?: number;
}

/** What gitlab-runner makes of a `PUT jobs/:id`'s answer (`common.UpdateJobResult`). */
export interface UpdateResult {
  state: 'succeeded' | 'accepted' | 'abort' | 'failed';
  cancelRequested: boolean;
  updateIntervalMs?: number;
}

export interface JobUpdate {
  state: 'running' | 'success' | 'failed';
  trace: Buffer;
  failureReason?: string;
  exitCode?: number;
}

export class RunnerApi {
  readonly base: string;

  constructor(url: string) {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`only http and https URLs are supported: ${url}`);
    this.base = runnerBaseUrl(url);
  }

  /** `POST runners` with a registration token: the runner's id and token on 201 (a transport error, -1, after `REGISTER_TIMEOUT_MS` without an answer). */
  register(registrationToken: string, opts: { description: string; tags: string[] }): Promise<Answer> {
    const body: Record<string, unknown> = {
      description: opts.description,
      info: RUNNER_INFO,
      token: registrationToken,
      run_untagged: true,
      locked: false,
      paused: false,
    };
    if (opts.tags.length > 0) body.tag_list = opts.tags.join(',');
    return this.json('POST', 'runners', body, REGISTER_TIMEOUT_MS);
  }

  /** `POST runners/verify` with a runner authentication token (`glrt-…`), as `gitlab-runner register --token` does instead of registering. */
  verify(token: string): Promise<Answer> {
    return this.json('POST', 'runners/verify', { token }, REGISTER_TIMEOUT_MS);
  }

  /** `POST jobs/request`, held by the server while nothing is pending; `signal` hangs up. */
  async requestJob(token: string, lastUpdate: string, signal?: AbortSignal): Promise<JobRequest & { lastUpdate?: string }> {
    const answer = await this.json('POST', 'jobs/request', { info: RUNNER_INFO, token, last_update: lastUpdate }, undefined, signal);
    if (answer.status === 201) {
      if (answer.headers.get('content-type')?.startsWith('application/json') && answer.body && typeof answer.body === 'object')
        return { outcome: 'job', job: answer.body as JobPayload };
      return { outcome: 'failed', status: 201 };
    }
    if (answer.status === 204) return { outcome: 'nothing', status: 204, lastUpdate: answer.headers.get('x-gitlab-last-update') ?? '' };
    if (answer.status === 403) return { outcome: 'forbidden', status: 403 };
    return { outcome: 'failed', status: answer.status };
  }

  /** `PUT jobs/:id` with the state and the trace's checksum and size (not the trace: it went by PATCH). */
  async updateJob(job: JobCredentials, update: JobUpdate): Promise<UpdateResult> {
    const body: Record<string, unknown> = {
      info: RUNNER_INFO,
      token: job.token,
      state: update.state,
      output: { checksum: `crc32:${crc32Hex(update.trace)}`, bytesize: update.trace.length },
    };
    if (update.failureReason) body.failure_reason = update.failureReason;
    if (update.exitCode !== undefined) body.exit_code = update.exitCode;
    const answer = await this.json('PUT', `jobs/${job.id}`, body);
    const steer = { cancelRequested: cancelRequested(answer), updateIntervalMs: updateInterval(answer) };
    if (answer.status === 200) return { state: 'succeeded', ...steer };
    if (answer.status === 202) return { state: 'accepted', ...steer };
    if (answer.status === 403 || answer.status === 404) return { state: 'abort', ...steer };
    return { state: 'failed', ...steer };
  }

  /** `PATCH jobs/:id/trace` with `Content-Range: <from>-<last byte>`. */
  async patchTrace(job: JobCredentials, part: Buffer, from: number): Promise<PatchResult> {
    const answer = await this.send('PATCH', `jobs/${job.id}/trace`, {
      body: part,
      headers: {
        'content-type': 'text/plain',
        'content-range': `${from}-${from + part.length - 1}`,
        'job-token': job.token,
        'user-agent': USER_AGENT,
      },
    });
    const steer = { cancelRequested: cancelRequested(answer), updateIntervalMs: updateInterval(answer) };
    const offset = rangeEnd(answer.headers.get('range'));
    if (answer.status === 202) return { state: 'sent', offset: offset ?? from + part.length, ...steer };
    if (answer.status === 416) return offset === undefined ? { state: 'failed', ...steer } : { state: 'range-mismatch', offset, ...steer };
    if (answer.status === 403 || answer.status === 404) return { state: 'abort', ...steer };
    return { state: 'failed', ...steer };
  }

  /**
   * `POST jobs/:id/artifacts?artifact_format=zip&artifact_type=archive[&expire_in=…]`: one `file`
   * part streamed from `zipPath` (chunked, no Content-Length), with the job's own token.
   */
  uploadArtifacts(job: JobCredentials, zipPath: string, opts: { name: string; expireIn?: string }): Promise<Answer> {
    const boundary = randomBytes(16).toString('hex');
    const filename = `${opts.name}.zip`.replace(/["\r\n\\]/g, '_');
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    async function* body() {
      yield head;
      for await (const chunk of fs.createReadStream(zipPath)) yield chunk as Buffer;
      yield tail;
    }
    const query = new URLSearchParams({ artifact_format: 'zip', artifact_type: 'archive' });
    if (opts.expireIn) query.set('expire_in', opts.expireIn);
    return this.send('POST', `jobs/${job.id}/artifacts?${query}`, {
      body: Readable.toWeb(Readable.from(body())) as ReadableStream<Uint8Array>,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'job-token': job.token, 'user-agent': USER_AGENT },
    });
  }

  /** `GET jobs/:id/artifacts` with that job's own token, written to `file`; the status (-1: transport error). */
  async downloadArtifacts(dependency: JobCredentials, file: string): Promise<number> {
    try {
      const response = await fetch(`${this.base}jobs/${dependency.id}/artifacts`, {
        headers: { 'job-token': dependency.token, 'user-agent': USER_AGENT },
      });
      if (response.status !== 200 || !response.body) {
        await response.body?.cancel();
        return response.status;
      }
      await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), fs.createWriteStream(file));
      return 200;
    } catch {
      return -1;
    }
  }

  private json(method: string, path: string, body: unknown, timeoutMs?: number, signal?: AbortSignal): Promise<Answer> {
    const headers = { 'content-type': 'application/json', accept: 'application/json', 'user-agent': USER_AGENT };
    return this.send(method, path, { body: JSON.stringify(body), headers, timeoutMs, signal });
  }

  private async send(
    method: string,
    path: string,
    init: {
      body: string | Buffer | ReadableStream<Uint8Array>;
      headers: Record<string, string>;
      timeoutMs?: number;
      signal?: AbortSignal;
    },
  ): Promise<Answer> {
    const signals = [init.signal, init.timeoutMs === undefined ? undefined : AbortSignal.timeout(init.timeoutMs)].filter(
      (signal) => signal !== undefined,
    );
    try {
      const response = await fetch(this.base + path, {
        method,
        headers: init.headers,
        body: init.body as BodyInit,
        ...(signals.length > 0 ? { signal: AbortSignal.any(signals) } : {}),
        ...(init.body instanceof ReadableStream ? { duplex: 'half' } : {}),
      } as RequestInit);
      const text = await response.text();
      let body: unknown = text;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, headers: response.headers, body };
    } catch (error) {
      return transportError(error);
    }
  }
}

/** `Job-Status: canceled` (or `canceling`): the server wants the job stopped. */
const cancelRequested = (answer: Answer) => ['canceled', 'canceling'].includes(answer.headers.get('job-status') ?? '');

function updateInterval(answer: Answer): number | undefined {
  const seconds = Number(answer.headers.get('x-gitlab-trace-update-interval'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

/** The end of `Range: 0-<end>`. */
function rangeEnd(range: string | null): number | undefined {
  const end = Number(/^\s*\d+-(\d+)\s*$/.exec(range ?? '')?.[1]);
  return Number.isInteger(end) ? end : undefined;
}

const crc32Hex = (bytes: Buffer) => (zlibCrc32(bytes) >>> 0).toString(16).padStart(8, '0');

/** How long one registration request may go unanswered before it counts as a transport error (and is tried again). */
export const REGISTER_TIMEOUT_MS = 20_000;

/**
 * Calls `attempt` until `done` accepts its answer, waiting `pauseMs` between tries, at most `tries`
 * times (Infinity: for ever, as the runner's final update does), or until `signal` aborts.
 */
export async function retrying<T>(
  attempt: () => Promise<T>,
  done: (answer: T) => boolean,
  pauseMs: number | ((answer: T) => number),
  tries: number,
  signal?: AbortSignal,
): Promise<T> {
  for (let n = 1; ; n++) {
    const answer = await attempt();
    if (done(answer) || n >= tries || signal?.aborted) return answer;
    await sleep(typeof pauseMs === 'number' ? pauseMs : pauseMs(answer), undefined, { signal }).catch(() => undefined);
  }
}
