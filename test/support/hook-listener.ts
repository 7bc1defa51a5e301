import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** How the listener answers its n-th request (0-based): a status (maybe later), or never. */
export type Answer = (n: number) => number | 'never' | Promise<number>;

/**
 * A local HTTP(S) server on 127.0.0.1 standing in for a hook receiver. Tests
 * await deliveries with `next()`/`waitFor()`, never with timers.
 */
export class HookListener {
  readonly received: ReceivedHook[] = [];
  private waiters: Array<() => void> = [];

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(options: { answer?: Answer; port?: number; tls?: { key: string; cert: string } } = {}): Promise<HookListener> {
    const answer = options.answer ?? (() => 200);
    let listener: HookListener | undefined;
    const handle = (request: http.IncomingMessage, response: http.ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const n = listener!.received.length;
        listener!.record({
          method: request.method ?? '',
          url: request.url ?? '',
          headers: request.headers,
          body: text ? JSON.parse(text) : undefined,
        });
        const status = answer(n);
        if (status !== 'never')
          void Promise.resolve(status).then((code) => response.writeHead(code, { 'content-type': 'text/plain' }).end('ok'));
      });
    };
    const server = options.tls ? https.createServer(options.tls, handle) : http.createServer(handle);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    listener = new HookListener(server, `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}/hook`);
    return listener;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  private record(hook: ReceivedHook): void {
    this.received.push(hook);
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((wake) => wake());
  }

  /** The first request (received or to come) that matches. */
  async waitFor(match: (hook: ReceivedHook) => boolean): Promise<ReceivedHook> {
    for (;;) {
      const found = this.received.find(match);
      if (found) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Resolves once `count` requests have arrived. */
  async waitForCount(count: number): Promise<ReceivedHook[]> {
    while (this.received.length < count) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.received.slice(0, count);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
