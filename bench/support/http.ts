import http from 'node:http';
import { performance } from 'node:perf_hooks';

export interface TimedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** From sending the request to the last byte of the answer. */
  ms: number;
}

// One kept-alive connection, as a client paging through an API would use.
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** Sends one request and reads the whole answer, timing it with the same clock as `timeSpawn`. */
export function timedRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<TimedResponse> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.request(url, { method: options.method ?? 'GET', headers: options.headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
          ms: performance.now() - started,
        }),
      );
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

/** A JSON call to /api/v3 that must succeed: set-up steps, not measurements. */
export async function apiCall(baseUrl: string, token: string, method: string, path: string, body?: unknown): Promise<any> {
  const headers: Record<string, string> = token ? { 'private-token': token } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await timedRequest(`${baseUrl}/api/v3${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${response.body.toString().slice(0, 300)}`);
  return response.body.length ? JSON.parse(response.body.toString()) : undefined;
}

export function closeConnections(): void {
  agent.destroy();
}
