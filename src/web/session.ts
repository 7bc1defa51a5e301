import crypto from 'node:crypto';
import type { SecretBox } from '../lib/secrets';
import { sameSecret } from '../lib/secrets';

/*
 * A web session is a sealed cookie (AES-GCM under the instance's key, `SecretBox`): it names the
 * user, when it ends, and a fingerprint of the user's password hash, so that changing the password
 * ends every session made with the old one. Signing out forgets the cookie. Nothing is stored
 * on the server, so a copied cookie lives until its expiry or the next password change.
 */

export const SESSION_COOKIE = '_forge_session';
export const CSRF_COOKIE = '_forge_csrf';
/** GitLab 8.12's default session length: a week. */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface Session {
  userId: number;
  expiresAt: number;
  /** Random per sign-in: CSRF tokens are bound to it, so a token of one session means nothing in another. */
  nonce: string;
}

interface Sealed {
  u: number;
  e: number;
  n: string;
  f: string;
}

export class SessionCodec {
  constructor(private readonly secrets: SecretBox) {}

  private fingerprint(passwordHash: string): string {
    return this.secrets.sign('web-session-password', passwordHash).slice(0, 22);
  }

  seal(user: { id: number; password_hash: string }, now = Date.now()): { value: string; session: Session } {
    const session: Session = { userId: user.id, expiresAt: now + SESSION_TTL_MS, nonce: crypto.randomBytes(16).toString('hex') };
    const sealed: Sealed = { u: session.userId, e: session.expiresAt, n: session.nonce, f: this.fingerprint(user.password_hash) };
    return { value: this.secrets.seal(JSON.stringify(sealed)), session };
  }

  /** The session a cookie holds, or undefined when it is forged, expired or malformed; the password check is `matches`. */
  open(value: string | undefined, now = Date.now()): (Session & { fingerprint: string }) | undefined {
    if (!value || value.length > 1024) return undefined;
    try {
      const sealed = JSON.parse(this.secrets.unseal(value)) as Sealed;
      if (!Number.isInteger(sealed.u) || typeof sealed.n !== 'string' || typeof sealed.f !== 'string' || !(sealed.e > now))
        return undefined;
      return { userId: sealed.u, expiresAt: sealed.e, nonce: sealed.n, fingerprint: sealed.f };
    } catch {
      return undefined;
    }
  }

  /** Whether a session was made with the user's current password. */
  matches(session: { fingerprint: string }, user: { password_hash: string }): boolean {
    return sameSecret(session.fingerprint, this.fingerprint(user.password_hash));
  }

  /**
   * The CSRF token of a browser: a signature of its random CSRF cookie and of its session, so that
   * neither a cookie planted from elsewhere nor a token seen in another session passes.
   */
  csrfToken(csrfCookie: string, session: Session | undefined): string {
    return this.secrets.sign('web-csrf', `${csrfCookie}:${session?.nonce ?? ''}`);
  }

  validCsrf(csrfCookie: string | undefined, session: Session | undefined, token: unknown): boolean {
    return typeof token === 'string' && !!csrfCookie && sameSecret(token, this.csrfToken(csrfCookie, session));
  }
}

export const newCsrfCookie = (): string => crypto.randomBytes(18).toString('base64url');
