import { randomBytes } from 'node:crypto';

/*
 * A client of `/ci/api/v1` that talks exactly as gitlab-ci-multi-runner 1.6.0 does (reference §8):
 * the base URL rule, its User-Agent on requests with a body only, JSON bodies with `info`, `.json`
 * paths, the strict Content-Type check of a 201, trace parts with `Content-Range: <sent>-<total>`
 * and the 416 resync, the final PUT with the whole trace, chunked multipart artifact uploads, and
 * downloads with Go's default User-Agent and the dependency's own token.
 */

export const RUNNER_USER_AGENT = 'gitlab-ci-multi-runner 1.6.0 (1-6-stable; go1.6.3; linux/amd64)';
export const GO_USER_AGENT = 'Go-http-client/1.1';

export const RUNNER_INFO = {
  name: 'gitlab-ci-multi-runner',
  version: '1.6.0',
  revision: 'c1ecf97f',
  platform: 'linux',
  architecture: 'amd64',
  executor: 'shell',
  features: { variables: true, image: false, services: false, features: true, cache: true },
};

export interface RunnerResponse {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** What the runner got from `builds/register.json`: a build, "nothing", or a failure (the runner's -1). */
export type BuildRequest =
  | { outcome: 'build'; build: any; response: RunnerResponse }
  | { outcome: 'nothing' | 'forbidden' | 'failed'; response: RunnerResponse };

/** A build the runner is working on, with what it has sent of its trace. */
export interface RunningBuild {
  id: number;
  token: string;
  payload: any;
  /** The whole trace so far, on the runner's side. */
  trace: string;
  /** Bytes the server has acknowledged. */
  sent: number;
}

/** The base URL rule of 1.6.0: trailing slash removed, `/ci` appended unless there, then `/api/v1/`. */
export function runnerBaseUrl(configured: string): string {
  let base = configured.replace(/\/+$/, '');
  if (!base.endsWith('/ci')) base += '/ci';
  return `${base}/api/v1/`;
}

export class RunnerClient {
  readonly base: string;
  token: string | undefined;

  constructor(url: string, token?: string) {
    this.base = runnerBaseUrl(url);
    this.token = token;
  }

  /** `POST runners/register.json`; keeps the runner token on 201. */
  async register(
    registrationToken: string,
    opts: { description?: string; tagList?: string; runUntagged?: boolean } = {},
  ): Promise<RunnerResponse> {
    const body: Record<string, unknown> = { info: RUNNER_INFO, token: registrationToken, description: opts.description ?? 'test runner' };
    if (opts.tagList) body.tag_list = opts.tagList;
    if (opts.runUntagged !== undefined) body.run_untagged = opts.runUntagged;
    const response = await this.json('POST', 'runners/register.json', body, true);
    if (response.status === 201) {
      assertRunnerContentType(response);
      this.token = response.body.token;
    }
    return response;
  }

  /** `POST builds/register.json`, and what the runner makes of the answer. */
  async requestBuild(): Promise<BuildRequest> {
    const response = await this.json('POST', 'builds/register.json', { info: RUNNER_INFO, token: this.token }, true);
    if (response.status === 201) {
      // The runner decodes only an exact `application/json`; anything else is a failure after the build was assigned.
      if (response.headers.get('content-type') !== 'application/json') return { outcome: 'failed', response };
      return { outcome: 'build', build: this.started(response.body), response };
    }
    if (response.status === 204 || response.status === 404) return { outcome: 'nothing', response };
    if (response.status === 403) return { outcome: 'forbidden', response };
    return { outcome: 'failed', response };
  }

  /** A build handed out by the server, as the runner tracks it. */
  started(payload: any): RunningBuild {
    return { id: payload.id, token: payload.token, payload, trace: '', sent: 0 };
  }

  /** `PUT builds/<id>.json` with `{state: "running"}` and no trace, as the first tick sends. */
  updateState(build: RunningBuild, state: string): Promise<RunnerResponse> {
    return this.json('PUT', `builds/${build.id}.json`, { info: RUNNER_INFO, token: this.token, state }, false);
  }

  /**
   * Adds `text` to the build's trace and sends what the server has not acknowledged as one
   * `PATCH builds/<id>/trace.txt`; on 416 resyncs from the server's `Range` once (§8.6).
   */
  async appendTrace(build: RunningBuild, text: string): Promise<RunnerResponse> {
    build.trace += text;
    let response = await this.patchFrom(build, build.sent);
    if (response.status === 416) {
      const offset = Number(/-(\d+)/.exec(response.headers.get('range') ?? '')?.[1]);
      if (Number.isInteger(offset) && offset <= Buffer.byteLength(build.trace)) response = await this.patchFrom(build, offset);
      // The server has more than the runner: the runner sends its whole trace with a PUT instead.
      else
        return this.json('PUT', `builds/${build.id}.json`, { info: RUNNER_INFO, token: this.token, state: 'running', trace: build.trace });
    }
    if (response.status === 202) build.sent = Buffer.byteLength(build.trace);
    return response;
  }

  private patchFrom(build: RunningBuild, offset: number): Promise<RunnerResponse> {
    const all = Buffer.from(build.trace);
    return this.send('PATCH', `builds/${build.id}/trace.txt`, {
      body: all.subarray(offset),
      headers: {
        'content-type': 'text/plain',
        'content-range': `${offset}-${all.length}`,
        'build-token': build.token,
        'user-agent': RUNNER_USER_AGENT,
      },
    });
  }

  /** The final `PUT builds/<id>.json` with the state and the whole trace. */
  finish(build: RunningBuild, state: 'success' | 'failed', trace?: string): Promise<RunnerResponse> {
    if (trace !== undefined) build.trace = trace;
    return this.json('PUT', `builds/${build.id}.json`, { info: RUNNER_INFO, token: this.token, state, trace: build.trace }, false);
  }

  /** `POST builds/<id>/artifacts?expire_in=…`: one `file` part, streamed with chunked encoding and no Content-Length. */
  uploadArtifacts(
    build: RunningBuild,
    zip: Buffer,
    opts: { name?: string; expireIn?: string; token?: string } = {},
  ): Promise<RunnerResponse> {
    const boundary = randomBytes(16).toString('hex');
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${opts.name ?? 'artifacts'}.zip"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const query = opts.expireIn ? `expire_in=${encodeURIComponent(opts.expireIn)}` : '';
    return this.send('POST', `builds/${build.id}/artifacts?${query}`, {
      body: chunked([head, zip, tail]),
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'build-token': opts.token ?? build.token,
        'user-agent': RUNNER_USER_AGENT,
      },
    });
  }

  /** `GET builds/<dep id>/artifacts` with the dependency's own token, no body: Go's default User-Agent. */
  async downloadArtifacts(dependency: { id: number; token: string }): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
    const response = await fetch(`${this.base}builds/${dependency.id}/artifacts`, {
      headers: { 'build-token': dependency.token, 'user-agent': GO_USER_AGENT },
    });
    return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
  }

  /** `DELETE runners/delete` with `{token}`. */
  unregister(): Promise<RunnerResponse> {
    return this.json('DELETE', 'runners/delete', { token: this.token }, false);
  }

  /** The liveness check: `PUT builds/-1`; 404 means alive, 403 removed. */
  verify(): Promise<RunnerResponse> {
    return this.json('PUT', 'builds/-1', { token: this.token }, false);
  }

  /** A JSON call as the runner makes it (public so tests can send odd bodies the runner's way). */
  json(method: string, path: string, body: unknown, expectBody = false): Promise<RunnerResponse> {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': RUNNER_USER_AGENT };
    if (expectBody) headers.accept = 'application/json';
    return this.send(method, path, { body: JSON.stringify(body), headers });
  }

  async send(
    method: string,
    path: string,
    init: { body?: string | Buffer | ReadableStream<Uint8Array>; headers?: Record<string, string> },
  ): Promise<RunnerResponse> {
    const response = await fetch(this.base + path, {
      method,
      headers: init.headers,
      body: init.body as BodyInit | undefined,
      ...(init.body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit);
    const text = await response.text();
    let body: any = text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: response.headers, text, body };
  }
}

/** A 201 the runner decodes carries `application/json` exactly (runners up to 1.9.1 compare strings). */
export function assertRunnerContentType(response: RunnerResponse): void {
  const type = response.headers.get('content-type');
  if (type !== 'application/json') throw new Error(`runner 1.6 refuses Content-Type ${JSON.stringify(type)}`);
}

/** A stream of the given buffers in 64 KiB pieces: fetch sends it chunked, without Content-Length. */
export function chunked(buffers: Buffer[]): ReadableStream<Uint8Array> {
  const pieces = buffers.flatMap((buffer) => {
    const out: Buffer[] = [];
    for (let at = 0; at < buffer.length; at += 65536) out.push(buffer.subarray(at, at + 65536));
    return out;
  });
  return new ReadableStream({
    pull(controller) {
      const next = pieces.shift();
      if (next) controller.enqueue(new Uint8Array(next));
      else controller.close();
    },
  });
}
