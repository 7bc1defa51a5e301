import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SecretBox } from '../lib/secrets';
import { sameSecret } from '../lib/secrets';

/*
 * GitLab's flash notice: one line said on the page a form's redirect leads to ("Project 'x' was
 * successfully updated."), then gone. It travels in a short-lived cookie signed with the instance's
 * key and bound to the browser's CSRF cookie, so no other site or browser can plant one; the next
 * page asked for takes it and clears it. It is text, always escaped where shown.
 */

export const NOTICE_COOKIE = '_forge_notice';
/** The notice is for the page the redirect leads to, asked for at once. */
export const NOTICE_TTL_SECONDS = 60;
/** Notices name records (a project's name, a group's): bounded so that the cookie stays small. */
const MAX_NOTICE = 400;

export class NoticeCodec {
  constructor(private readonly secrets: SecretBox) {}

  seal(notice: string, csrfCookie: string): string {
    const text = notice.length > MAX_NOTICE ? `${notice.slice(0, MAX_NOTICE - 1)}…` : notice;
    const encoded = Buffer.from(text, 'utf8').toString('base64url');
    return `${encoded}.${this.secrets.sign('web-notice', `${csrfCookie}:${encoded}`)}`;
  }

  /** The notice a cookie carries, or undefined when it is forged, another browser's or malformed. */
  open(value: string | undefined, csrfCookie: string): string | undefined {
    if (!value || value.length > 2048) return undefined;
    const dot = value.indexOf('.');
    if (dot < 1) return undefined;
    const encoded = value.slice(0, dot);
    if (!sameSecret(value.slice(dot + 1), this.secrets.sign('web-notice', `${csrfCookie}:${encoded}`))) return undefined;
    return Buffer.from(encoded, 'base64url').toString('utf8');
  }
}

/** A form's success: back to a page (303), which then says `notice` once. */
export function redirectWithNotice(request: FastifyRequest, reply: FastifyReply, location: string, notice: string): FastifyReply {
  request.web.flash(notice);
  return reply.redirect(location, 303);
}
