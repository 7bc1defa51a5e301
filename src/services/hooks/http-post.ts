import http from 'node:http';
import https from 'node:https';

export interface PostOptions {
  headers: Record<string, string>;
  body: string;
  /** False skips the server certificate checks (a hook's `enable_ssl_verification`). */
  verifyTls: boolean;
  signal: AbortSignal;
  /** At most this many bytes of the response body are read; the rest is left unread. */
  bodyLimit: number;
}

export interface PostAnswer {
  status: number;
  /** The start of the response body, up to `bodyLimit` bytes, as UTF-8. */
  body: string;
}

/**
 * POSTs a body and answers the response status and the start of its body. Credentials in the URL
 * (`https://user:secret@host/`) are sent as HTTP Basic authentication, as GitLab does; fetch would
 * refuse such a URL. node:http rather than fetch: fetch cannot turn certificate checks off per
 * request without the undici package.
 */
export function postForAnswer(url: URL, options: PostOptions): Promise<PostAnswer> {
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
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => resolve({ status, body: Buffer.concat(chunks).subarray(0, options.bodyLimit).toString('utf8') });
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        // Enough is kept: the receiver's answer need not be waited for past the excerpt.
        if (size >= options.bodyLimit) {
          response.destroy();
          done();
        }
      });
      response.once('end', done);
      // An answer cut short still has its status; what came of its body is kept.
      response.once('error', done);
      response.once('close', done);
    });
    request.once('error', reject);
    request.end(options.body);
  });
}
