import { randomBytes } from 'node:crypto';

/*
 * A client of the runner API v4 that talks as gitlab-runner does (its `network/gitlab.go` and
 * `common/network.go`): JSON bodies with `info` and the runner token, `Accept: application/json`
 * where an answer is decoded, `X-GitLab-Last-Update` carried back as `last_update`, trace parts as
 * `PATCH jobs/:id/trace` with `Content-Range: <offset>-<limit>` and `JOB-TOKEN` (a 416 moves the
 * offset to the server's `Range` end and sends again), `Job-Status` read as the cancel channel,
 * artifacts as a chunked multipart `file` with `artifact_format`/`artifact_type`/`expire_in` in the
 * query, and dependencies downloaded with their own token.
 */

export const RUNNER_V4_USER_AGENT = 'gitlab-runner 16.11.0 (16-11-stable; go1.21.9; linux/amd64)';

export const RUNNER_V4_INFO = {
  name: 'gitlab-runner',
  version: '16.11.0',
  revision: '91a27b2a',
  platform: 'linux',
  architecture: 'amd64',
  executor: 'shell',
  shell: 'bash',
  features: { variables: true, artifacts: true, cache: true, upload_multiple_artifacts: true, refspecs: true, trace_checksum: true },
};

export interface V4Response {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** A job the runner works on: its payload and what the server has acknowledged of its trace. */
export interface V4Job {
  id: number;
  token: string;
  payload: any;
  trace: string;
  /** Bytes of the trace the server holds (the runner's offset). */
  sent: number;
}

/** What the runner makes of `POST jobs/request`: a job, nothing, or a refusal. */
export type V4JobRequest =
  | { outcome: 'job'; job: V4Job; response: V4Response }
  | { outcome: 'nothing' | 'forbidden' | 'failed'; response: V4Response };

export class RunnerV4Client {
  readonly base: string;
  token: string | undefined;
  /** The last `X-GitLab-Last-Update`, sent back with the next request. */
  lastUpdate = '';

  constructor(url: string, token?: string) {
    this.base = `${url.replace(/\/+$/, '')}/api/v4/`;
    this.token = token;
  }

  /** `POST runners` as `gitlab-runner register --registration-token …`; keeps the runner token on 201. */
  async register(
    registrationToken: string,
    opts: {
      description?: string;
      tagList?: string;
      runUntagged?: boolean;
      locked?: boolean;
      accessLevel?: string;
      maximumTimeout?: number;
    } = {},
  ): Promise<V4Response> {
    const body: Record<string, unknown> = {
      description: opts.description ?? 'v4 test runner',
      run_untagged: opts.runUntagged ?? true,
      locked: opts.locked ?? false,
      paused: false,
      info: RUNNER_V4_INFO,
      token: registrationToken,
    };
    if (opts.tagList) body.tag_list = opts.tagList;
    if (opts.accessLevel) body.access_level = opts.accessLevel;
    if (opts.maximumTimeout) body.maximum_timeout = opts.maximumTimeout;
    const response = await this.json('POST', 'runners', body);
    if (response.status === 201) this.token = response.body.token;
    return response;
  }

  verify(): Promise<V4Response> {
    return this.json('POST', 'runners/verify', { token: this.token, system_id: 's_0123456789ab' });
  }

  unregister(): Promise<V4Response> {
    return this.json('DELETE', 'runners', { token: this.token });
  }

  /** `POST jobs/request`: held by the server while nothing is pending. */
  async requestJob(signal?: AbortSignal): Promise<V4JobRequest> {
    const body = { info: RUNNER_V4_INFO, token: this.token, system_id: 's_0123456789ab', last_update: this.lastUpdate };
    const response = await this.json('POST', 'jobs/request', body, signal);
    if (response.status === 201) {
      if (!/^application\/json/.test(response.headers.get('content-type') ?? '')) return { outcome: 'failed', response };
      return {
        outcome: 'job',
        job: { id: response.body.id, token: response.body.token, payload: response.body, trace: '', sent: 0 },
        response,
      };
    }
    if (response.status === 204) {
      this.lastUpdate = response.headers.get('x-gitlab-last-update') ?? '';
      return { outcome: 'nothing', response };
    }
    if (response.status === 403) return { outcome: 'forbidden', response };
    return { outcome: 'failed', response };
  }

  /**
   * Adds `text` to the job's trace and sends what the server lacks, as the runner's trace
   * buffer does; on 416 the offset becomes the end of the server's `Range` and the rest is sent again.
   */
  async appendTrace(job: V4Job, text: string): Promise<V4Response> {
    job.trace += text;
    let response = await this.patchFrom(job, job.sent);
    if (response.status === 416) {
      job.sent = Number((response.headers.get('range') ?? '').split('-')[1] ?? 0);
      response = await this.patchFrom(job, job.sent);
    }
    if (response.status === 202) job.sent = Number((response.headers.get('range') ?? '').split('-')[1] ?? job.sent);
    return response;
  }

  /** One trace part from `offset` to the end of what the runner has. */
  patchFrom(job: V4Job, offset: number): Promise<V4Response> {
    const all = Buffer.from(job.trace);
    const part = all.subarray(offset);
    return this.send('PATCH', `jobs/${job.id}/trace`, {
      body: part,
      headers: {
        'content-type': 'text/plain',
        'content-range': `${offset}-${offset + part.length - 1}`,
        'job-token': job.token,
        'user-agent': RUNNER_V4_USER_AGENT,
      },
    });
  }

  /** `PUT jobs/:id`: the final state, with the exit code and why it failed, and the trace's checksum and size. */
  finish(job: V4Job, state: 'success' | 'failed', opts: { failureReason?: string; exitCode?: number } = {}): Promise<V4Response> {
    const body: Record<string, unknown> = {
      info: RUNNER_V4_INFO,
      token: job.token,
      state,
      output: { checksum: 'crc32:00000000', bytesize: Buffer.byteLength(job.trace) },
    };
    if (opts.failureReason) body.failure_reason = opts.failureReason;
    if (opts.exitCode) body.exit_code = opts.exitCode;
    return this.json('PUT', `jobs/${job.id}`, body);
  }

  /** `POST jobs/:id/artifacts?artifact_format=zip&artifact_type=archive[&expire_in=…]`, one chunked `file` part. */
  uploadArtifacts(
    job: V4Job,
    zip: Buffer,
    opts: { expireIn?: string; type?: string; format?: string; token?: string } = {},
  ): Promise<V4Response> {
    const boundary = randomBytes(16).toString('hex');
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="artifacts.zip"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const query = new URLSearchParams();
    if (opts.expireIn) query.set('expire_in', opts.expireIn);
    query.set('artifact_format', opts.format ?? 'zip');
    query.set('artifact_type', opts.type ?? 'archive');
    return this.send('POST', `jobs/${job.id}/artifacts?${query}`, {
      body: chunked([head, zip, tail]),
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'job-token': opts.token ?? job.token,
        'user-agent': RUNNER_V4_USER_AGENT,
      },
    });
  }

  /** `GET jobs/<dependency>/artifacts` with the dependency's own token. */
  async downloadArtifacts(dependency: { id: number; token: string }): Promise<{ status: number; bytes: Buffer }> {
    const response = await fetch(`${this.base}jobs/${dependency.id}/artifacts`, {
      headers: { 'job-token': dependency.token, 'user-agent': RUNNER_V4_USER_AGENT },
    });
    return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
  }

  json(method: string, path: string, body: unknown, signal?: AbortSignal): Promise<V4Response> {
    return this.send(method, path, {
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', accept: 'application/json', 'user-agent': RUNNER_V4_USER_AGENT },
      signal,
    });
  }

  async send(
    method: string,
    path: string,
    init: { body?: string | Buffer | ReadableStream<Uint8Array>; headers?: Record<string, string>; signal?: AbortSignal },
  ): Promise<V4Response> {
    const response = await fetch(this.base + path, {
      method,
      headers: init.headers,
      body: init.body as BodyInit | undefined,
      signal: init.signal,
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

function chunked(buffers: Buffer[]): ReadableStream<Uint8Array> {
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
