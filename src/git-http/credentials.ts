export interface BasicCredentials {
  username: string;
  password: string;
}

/**
 * HTTP Basic credentials from an `Authorization` header: undefined when there are none (another
 * scheme counts as none), `malformed` when a Basic header cannot be read.
 */
export function basicCredentials(header: string | undefined): BasicCredentials | 'malformed' | undefined {
  if (!header) return undefined;
  const match = /^Basic\s+(\S*)\s*$/i.exec(header);
  if (!match) return /^Basic\b/i.test(header) ? 'malformed' : undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return 'malformed';
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
