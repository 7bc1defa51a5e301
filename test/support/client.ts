export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

type Params = Record<string, unknown>;

/** A small raw-HTTP client for /api/v3 (or `/api/v4` through `v4()`), sending the private token as GitLab clients do. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly token?: string,
    /** What paths not starting with `/api/`, `/-/` or `/ci/` are under. */
    readonly prefix = '/api/v3',
  ) {}

  /** The same caller on API v4. */
  v4(): ApiClient {
    return new ApiClient(this.baseUrl, this.token, '/api/v4');
  }

  get(path: string, query?: Params, headers?: Record<string, string>) {
    return this.request('GET', withQuery(path, query), undefined, headers);
  }
  post(path: string, body?: Params, headers?: Record<string, string>) {
    return this.request('POST', path, body, headers);
  }
  put(path: string, body?: Params, headers?: Record<string, string>) {
    return this.request('PUT', path, body, headers);
  }
  delete(path: string, query?: Params, headers?: Record<string, string>) {
    return this.request('DELETE', withQuery(path, query), undefined, headers);
  }

  /** POSTs or PUTs as an urlencoded form, as `node-gitlab` does. */
  form(method: 'POST' | 'PUT' | 'DELETE', path: string, fields: Params) {
    const body = new URLSearchParams();
    for (const [key, value] of Object.entries(fields)) {
      if (Array.isArray(value)) value.forEach((item) => body.append(`${key}[]`, String(item)));
      else if (value !== undefined) body.append(key, String(value));
    }
    return this.raw(method, path, { body: body.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  }

  request(method: string, path: string, body?: Params, headers: Record<string, string> = {}) {
    return this.raw(method, path, {
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    });
  }

  async raw(method: string, path: string, init: { body?: string | Buffer; headers?: Record<string, string> } = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (this.token && !('private-token' in headers)) headers['private-token'] = this.token;
    const url = path.startsWith('http')
      ? path
      : `${this.baseUrl}${path.startsWith('/api/') || path.startsWith('/-/') || path.startsWith('/ci/') ? '' : this.prefix}${path}`;
    const response = await fetch(url, { method, headers, body: init.body as BodyInit | undefined });
    const text = await response.text();
    let body: any = text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: response.headers, body, text };
  }
}

function withQuery(path: string, query?: Params): string {
  if (!query) return path;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) value.forEach((item) => search.append(`${key}[]`, String(item)));
    else if (value !== undefined) search.append(key, String(value));
  }
  const text = search.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}
