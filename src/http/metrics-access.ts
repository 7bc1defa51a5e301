import { BlockList, isIP } from 'node:net';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { headerValue, stringParam } from './tokens';

/**
 * Who may read `/-/metrics` (as GitLab's monitoring IP whitelist or its token): a caller whose
 * address is on the allow-list (loopback by default), or one presenting the metrics token
 * (`Authorization: Bearer <token>` or `?token=<token>`). The address is the socket's: a
 * `X-Forwarded-For` header is anybody's to write.
 */
export function metricsAccess(settings: { token: string; allow: string[] }): (request: FastifyRequest) => boolean {
  const allowed = new BlockList();
  for (const entry of settings.allow) {
    const [address, prefix] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) allowed.addAddress(address, family);
    else allowed.addSubnet(address, Number(prefix), family);
  }
  const tokenDigest = settings.token ? digest(settings.token) : undefined;
  return (request) => {
    const address = unmapped(request.socket.remoteAddress ?? '');
    if (address && allowed.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4')) return true;
    if (!tokenDigest) return false;
    const given =
      bearer(headerValue(request, 'authorization')) ?? stringParam((request.query as Record<string, unknown> | undefined)?.token);
    return given !== undefined && timingSafeEqual(digest(given), tokenDigest);
  };
}

/** `::ffff:127.0.0.1` (an IPv4 client of a dual-stack socket) is `127.0.0.1`. */
function unmapped(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

function bearer(header: string | undefined): string | undefined {
  const match = header && /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : undefined;
}

/** Compared as digests: equal lengths for `timingSafeEqual`, and no timing clue to the token's length. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
