import fs from 'node:fs';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BuildPayload } from './payload';

/*
 * The runner API v1 as gitlab-ci-multi-runner 1.6 speaks it (reference §8): its base URL rule, its
 * User-Agent on requests with a body (a 1.x one, so "no build" answers 204), `info` in JSON bodies,
 * the `.json` paths, and how each answer is read (§8.4). Only HTTP: the runner knows nothing else
 * of the server.
 */

export const FORGE_RUNNER_VERSION = '0.1.0';

// The server answers 204 rather than 404 for "no build" only to a User-Agent of this form (§2.3 step 6).
const USER_AGENT = `gitlab-ci-multi-runner 1.6.0 (forge-runner ${FORGE_RUNNER_VERSION}; node ${process.versions.node}; ${process.platform}/${process.arch})`;
// Downloads have no body, so 1.6 sends Go's default User-Agent on them.
const DOWNLOAD_USER_AGENT = 'Go-http-client/1.1';

export const RUNNER_INFO = {
  name: 'gitlab-ci-multi-runner',
  version: '1.6.0',
  revision: `forge-${FORGE_RUNNER_VERSION}`,
  platform: process.platform,
  architecture: os.arch(),
  executor: 'shell',
  features: { variables: true, image: false, services: false, features: true, cache: true },
};

/** `<url without trailing "/">[/ci]/api/v1/` (§8.1). */
export function runnerBaseUrl(configured: string): string {
  let base = configured.replace(/\/+$/, '');
  if (!base.endsWith('/ci')) base += '/ci';
  return `${base}/api/v1/`;
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

export type BuildRequest = { outcome: 'build'; build: BuildPayload } | { outcome: 'nothing' | 'forbidden' | 'failed'; status: number };

export class RunnerApi {
  readonly base: string;

  constructor(url: string) {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`only http and https URLs are supported: ${url}`);
    this.base = runnerBaseUrl(url);
  }

  /** `POST runners/register.json`: the runner's id and token on 201 (a transport error, -1, after `REGISTER_TIMEOUT_MS` without an answer). */
  async register(registrationToken: string, opts: { description: string; tags: string[] }): Promise<Answer> {
    const body: Record<string, unknown> = { info: RUNNER_INFO, token: registrationToken, description: opts.description };
    if (opts.tags.length > 0) body.tag_list = opts.tags.join(',');
    return this.json('POST', 'runners/register.json', body, true, REGISTER_TIMEOUT_MS);
  }

  /** `POST builds/register.json` and what 1.x makes of the answer (§2.3.3). */
  async requestBuild(token: string): Promise<BuildRequest> {
    const answer = await this.json('POST', 'builds/register.json', { info: RUNNER_INFO, token }, true);
    if (
      answer.status === 201 &&
      answer.headers.get('content-type')?.startsWith('application/json') &&
      answer.body &&
      typeof answer.body === 'object'
    ) {
      return { outcome: 'build', build: answer.body as BuildPayload };
    }
    if (answer.status === 204 || answer.status === 404) return { outcome: 'nothing', status: answer.status };
    if (answer.status === 403) return { outcome: 'forbidden', status: 403 };
    return { outcome: 'failed', status: answer.status };
  }

  /** `PUT builds/<id>.json` with the state and, when given, the whole trace. */
  updateBuild(token: string, buildId: number, state: string, trace?: string): Promise<Answer> {
    const body: Record<string, unknown> = { info: RUNNER_INFO, token, state };
    if (trace !== undefined) body.trace = trace;
    return this.json('PUT', `builds/${buildId}.json`, body, false);
  }

  /** `PATCH builds/<id>/trace.txt` with `Content-Range: <from>-<to>` (no `bytes `; §2.5). */
  patchTrace(build: { id: number; token: string }, part: Buffer, from: number): Promise<Answer> {
    return this.send('PATCH', `builds/${build.id}/trace.txt`, {
      body: part,
      headers: {
        'content-type': 'text/plain',
        'content-range': `${from}-${from + part.length}`,
        'build-token': build.token,
        'user-agent': USER_AGENT,
      },
    });
  }

  /**
   * `POST builds/<id>/artifacts?expire_in=…`: one `file` part streamed from `zipPath` (chunked, no
   * Content-Length), with the build's own token.
   */
  uploadArtifacts(build: { id: number; token: string }, zipPath: string, opts: { name: string; expireIn?: string }): Promise<Answer> {
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
    const query = opts.expireIn ? `expire_in=${encodeURIComponent(opts.expireIn)}` : '';
    return this.send('POST', `builds/${build.id}/artifacts?${query}`, {
      body: Readable.toWeb(Readable.from(body())) as ReadableStream<Uint8Array>,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'build-token': build.token, 'user-agent': USER_AGENT },
    });
  }

  /** `GET builds/<id>/artifacts` with that build's own token, written to `file`; the status (-1: transport error). */
  async downloadArtifacts(dependency: { id: number; token: string }, file: string): Promise<number> {
    try {
      const response = await fetch(`${this.base}builds/${dependency.id}/artifacts`, {
        headers: { 'build-token': dependency.token, 'user-agent': DOWNLOAD_USER_AGENT },
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

  private json(method: string, path: string, body: unknown, expectBody: boolean, timeoutMs?: number): Promise<Answer> {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': USER_AGENT };
    if (expectBody) headers.accept = 'application/json';
    return this.send(method, path, { body: JSON.stringify(body), headers, timeoutMs });
  }

  private async send(
    method: string,
    path: string,
    init: { body: string | Buffer | ReadableStream<Uint8Array>; headers: Record<string, string>; timeoutMs?: number },
  ): Promise<Answer> {
    try {
      const response = await fetch(this.base + path, {
        method,
        headers: init.headers,
        body: init.body as BodyInit,
        ...(init.timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(init.timeoutMs) }),
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

/** How long one registration request may go unanswered before it counts as a transport error (and is tried again). */
export const REGISTER_TIMEOUT_MS = 20_000;

/**
 * Calls `attempt` until `done` accepts its answer, waiting `pauseMs` between tries, at most `tries`
 * times (Infinity: for ever, as the runner's final update does), or until `signal` aborts.
 */
export async function retrying(
  attempt: () => Promise<Answer>,
  done: (answer: Answer) => boolean,
  pauseMs: number,
  tries: number,
  signal?: AbortSignal,
): Promise<Answer> {
  for (let n = 1; ; n++) {
    const answer = await attempt();
    if (done(answer) || n >= tries || signal?.aborted) return answer;
    await sleep(pauseMs, undefined, { signal }).catch(() => undefined);
  }
}
