/**
 * A browser without a browser: a cookie jar, forms posted urlencoded, redirects not followed (tests
 * look at them). Enough for the web door's rules over real HTTP; `playwright-core` does the rest.
 */
export interface WebResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Every `Set-Cookie` line of the answer, as sent. */
  setCookies: string[];
}

export class WebClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request(method: string, path: string, form?: Record<string, string>, headers: Record<string, string> = {}): Promise<WebResponse> {
    const response = await fetch(this.baseUrl + path, {
      method,
      redirect: 'manual',
      headers: {
        ...(this.cookies.size > 0 ? { cookie: this.cookieHeader() } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: response.status, headers: response.headers, text: await response.text(), setCookies };
  }

  get(path: string): Promise<WebResponse> {
    return this.request('GET', path);
  }

  post(path: string, form: Record<string, string>): Promise<WebResponse> {
    return this.request('POST', path, form);
  }

  /** The CSRF token of the last form on a page. */
  static csrfToken(page: string): string {
    const matches = [...page.matchAll(/name="authenticity_token" value="([^"]+)"/g)];
    if (matches.length === 0) throw new Error('no authenticity_token on the page');
    return matches[matches.length - 1][1];
  }

  /** Signs in through the form; the answer to the POST. */
  async signIn(login: string, password: string): Promise<WebResponse> {
    const form = await this.get('/users/sign_in');
    return this.post('/users/sign_in', { login, password, authenticity_token: WebClient.csrfToken(form.text) });
  }
}
