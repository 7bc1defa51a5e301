import http from 'node:http';
import https from 'node:https';

export interface PostOptions {
  headers: Record<string, string>;
  body: string;
  /** False skips the server certificate checks (a hook's `enable_ssl_verification`). */
  verifyTls: boolean;
  signal: AbortSignal;
}

/**
 * POSTs a body and answers the response status, ignoring the response body.
 * Credentials in the URL (`https://user:secret@host/`) are sent as HTTP Basic
 * authentication, as GitLab does; fetch would refuse such a URL.
 * node:http rather than fetch: fetch cannot turn certificate checks off per request
 * without the undici package.
 */
export function postForStatus(url: URL, options: PostOptions): Promise<number> {
  const target = new URL(url);
  const headers: Record<string, string> = { ...options.headers, 'Content-Length': String(Buffer.byteLength(options.body)) };
  if (target.username || target.password) {
    const credentials = `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`;
    headers.Authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    target.username = '';
    target.password = '';
  }
  const secure = target.protocol === 'https:';
  const request = secure
    ? https.request(target, { method: 'POST', headers, signal: options.signal, rejectUnauthorized: options.verifyTls })
    : http.request(target, { method: 'POST', headers, signal: options.signal });
  return new Promise((resolve, reject) => {
    request.once('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.once('error', reject);
    request.end(options.body);
  });
}
