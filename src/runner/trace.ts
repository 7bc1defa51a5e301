import type { Answer, RunnerApi } from './api';
import { retrying } from './api';

/*
 * A build's trace on the runner's side, sent as it grows (reference §8.5 step 3, §8.6): a tick every
 * second sends `PUT {state: running}` once, then the bytes the server has not acknowledged as one
 * PATCH. A 416 restarts from the `Range` the server answers (or sends the whole trace with a PUT
 * when the server has more than we do); a 404 switches to whole-trace PUTs for good; a
 * `Build-Status: canceled` (or `failed`) header or a 403 aborts the build.
 *
 * The answers to these updates are the runner's only way to learn of a cancel: runner API v1 has
 * no request for a build's status. Runner 1.x PATCHes only when its trace grew, or every 30 s as a
 * keep-alive, so a silent build ran on for up to 30 s after a cancel. Here every tick sends its
 * PATCH, empty when nothing changed (the same empty part as 1.x's keep-alive, which 8.12 answers
 * 202 with `Build-Status`), so a cancel is seen within about a second. That is protocol-faithful
 * (no request a 1.x server does not know) and costs the server one build look-up and one file
 * stat a second per running build.
 */

const TICK_MS = 1000;
// The runner's default output limit: past it, the trace says so and the rest is dropped.
const TRACE_LIMIT_BYTES = 4 * 1024 * 1024;
// The final update is retried this often while the server cannot take it.
const FINAL_RETRY_MS = 3000;

export class TraceUploader {
  private chunks: Buffer[] = [];
  private length = 0;
  private full = false;
  private sent = 0;
  private stateSent = false;
  private putOnly = false;
  private lastSentLength = 0;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;

  constructor(
    private readonly api: RunnerApi,
    private readonly runnerToken: string,
    private readonly build: { id: number; token: string },
    /** Called once when the server says the build is no longer ours to run. */
    private readonly onAbort: (reason: string) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      if (!this.ticking) this.ticking = this.tick().finally(() => (this.ticking = undefined));
    }, TICK_MS);
  }

  write(data: Buffer | string): void {
    if (this.full) return;
    let bytes = typeof data === 'string' ? Buffer.from(data) : data;
    if (this.length + bytes.length > TRACE_LIMIT_BYTES) {
      bytes = Buffer.concat([
        bytes.subarray(0, TRACE_LIMIT_BYTES - this.length),
        Buffer.from(`\nBuild's log exceeded limit of ${TRACE_LIMIT_BYTES} bytes.\n`),
      ]);
      this.full = true;
    }
    this.chunks.push(bytes);
    this.length += bytes.length;
  }

  line(text: string): void {
    this.write(`${text}\n`);
  }

  private bytes(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0] ?? Buffer.alloc(0);
  }

  text(): string {
    return this.bytes().toString('utf8');
  }

  private async tick(): Promise<void> {
    if (!this.stateSent) {
      this.stateSent = true;
      const answer = await this.api.updateBuild(this.runnerToken, this.build.id, 'running');
      if (answer.status === 403 || answer.status === 404) return this.onAbort(`the server refused the build's update (${answer.status})`);
    }
    const all = this.bytes();
    if (this.putOnly) {
      // A server without PATCH: the whole trace when it grew, else the state alone, whose 403 or 404 says the same.
      const changed = all.length !== this.lastSentLength;
      const answer = await this.api.updateBuild(this.runnerToken, this.build.id, 'running', changed ? all.toString('utf8') : undefined);
      if (answer.status === 200) this.lastSentLength = all.length;
      else if (answer.status === 403 || answer.status === 404) this.onAbort(`the server refused the trace (${answer.status})`);
      return;
    }
    let answer = await this.api.patchTrace(this.build, all.subarray(this.sent), this.sent);
    if (answer.status === 416) {
      const offset = Number(/-(\d+)/.exec(answer.headers.get('range') ?? '')?.[1]);
      if (!Number.isInteger(offset)) return;
      if (offset > all.length) {
        // The server holds more than we produced: our whole trace goes with a PUT (8.12 replaced
        // the stored trace with it; Forge keeps the longer of the two).
        answer = await this.api.updateBuild(this.runnerToken, this.build.id, 'running', all.toString('utf8'));
        if (answer.status === 200) this.acknowledged(all.length);
        // A refused update aborts, as every update does (§2.4): this one was ignored, and the
        // uploader went on sending for a build the server no longer runs.
        else if (answer.status === 403 || answer.status === 404) this.onAbort(`the server refused the trace (${answer.status})`);
        return;
      }
      answer = await this.api.patchTrace(this.build, all.subarray(offset), offset);
    }
    this.react(answer, all.length);
  }

  private react(answer: Answer, length: number): void {
    const status = answer.headers.get('build-status');
    if (status === 'canceled' || status === 'failed') return this.onAbort(`the build was ${status} on the server`);
    if (answer.status === 202) this.acknowledged(length);
    else if (answer.status === 404) this.putOnly = true;
    else if (answer.status === 403) this.onAbort('the server refused the trace (403)');
  }

  private acknowledged(length: number): void {
    this.sent = length;
    this.lastSentLength = length;
  }

  /** Stops ticking (waiting for a tick in flight). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.ticking;
  }

  /**
   * The final `PUT {state, trace}`, retried while the server cannot take it (anything but 200, 403,
   * 404), or until `signal` aborts. Whether the server took it.
   */
  async finish(state: 'success' | 'failed', signal?: AbortSignal): Promise<number> {
    await this.stop();
    const answer = await retrying(
      () => this.api.updateBuild(this.runnerToken, this.build.id, state, this.text()),
      (a) => a.status === 200 || a.status === 403 || a.status === 404,
      FINAL_RETRY_MS,
      Infinity,
      signal,
    );
    return answer.status;
  }
}
