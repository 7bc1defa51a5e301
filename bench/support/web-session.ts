import { timedRequest, type TimedResponse } from './http';

/** The `name=value` pairs of a response's Set-Cookie headers. */
function cookiesOf(response: TimedResponse): Record<string, string> {
  const jar: Record<string, string> = {};
  for (const line of response.headers['set-cookie'] ?? []) {
    const pair = line.split(';', 1)[0];
    const at = pair.indexOf('=');
    if (at > 0) jar[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return jar;
}

/**
 * Signs in through the web form as a browser does (the sign-in page for its CSRF cookie and token,
 * then the form posted with them) and answers the Cookie header of the signed-in session, which
 * GPT's web tests also send with every request.
 */
export async function signInCookie(baseUrl: string, login: string, password: string): Promise<string> {
  const form = await timedRequest(`${baseUrl}/users/sign_in`);
  const token = /name="authenticity_token" value="([^"]+)"/.exec(form.body.toString())?.[1];
  const jar = cookiesOf(form);
  if (!token || Object.keys(jar).length === 0) throw new Error(`the sign-in page answered ${form.status} without a CSRF token`);
  const cookie = () =>
    Object.entries(jar)
      .map(([name, value]) => `${name}=${value}`)
      .join('; ');
  const signedIn = await timedRequest(`${baseUrl}/users/sign_in`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie() },
    body: new URLSearchParams({ login, password, authenticity_token: token }).toString(),
  });
  if (signedIn.status !== 303) throw new Error(`signing in as ${login} answered ${signedIn.status}`);
  Object.assign(jar, cookiesOf(signedIn));
  return cookie();
}
