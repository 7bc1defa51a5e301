import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import { ApiError } from '../errors';
import type { Services } from '../services/index';
import type { User } from '../services/users/users';
import type { BroadcastMessage } from '../services/broadcast-messages/broadcast-messages';
import type { WorkCounts } from '../services/users/work-counts';
import { CSRF_COOKIE, newCsrfCookie, SESSION_COOKIE, type Session, type SessionCodec } from './session';
import { NOTICE_COOKIE, NOTICE_TTL_SECONDS, type NoticeCodec } from './flash';
import type { PageContext } from './context';
import type { SafeHtml } from './html';
import { layout } from './layout';
import { errorPage, errorTitle } from './pages/error';

/** What the web door knows of a request once its cookies are read. */
export interface WebState {
  user: User | null;
  session: Session | undefined;
  /** The browser's CSRF cookie (made on its first page). */
  csrfCookie: string;
  /** The token this request's forms carry. */
  csrfToken: string;
  /**
   * What the layout shows around a page asked for (GET): the broadcast messages active now and the
   * signed-in user's open assigned issues and merge requests and pending todos. Read only when a page
   * is sent, so that a script's fetch (the build log's `trace.json`) or a redirect pays for neither.
   */
  chrome(): Promise<{ broadcasts?: BroadcastMessage[]; counts?: WorkCounts }>;
  /** The notice a form's redirect left for this page (GET), shown once. */
  notice?: string;
  /** Leaves a notice for the page this answer redirects to (`redirectWithNotice`). */
  flash(notice: string): void;
}

declare module 'fastify' {
  interface FastifyRequest {
    web: WebState;
  }
}

export interface CookieOptions {
  secure: boolean;
}

export function cookieOptions({ secure }: CookieOptions, maxAgeSeconds?: number) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure, ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }) };
}

/**
 * Every web route's config: public to the API's token authentication (pages read their own
 * session), and left out of the API's 405s.
 */
export const PAGE = { access: 'public', noMethodNotAllowed: true } as const;

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** First path segments of the other doors: no page whose path starts with a name answers under them. */
const OTHER_DOORS = new Set(['api', 'ci', 'oauth']);

const firstSegment = (url: string): string => url.slice(1).split(/[/?]/, 1)[0].toLowerCase();

/**
 * The web door's request handling: cookies, the signed-in user (a session whose user is gone,
 * blocked or has changed password is nobody), the CSRF cookie and the check of every unsafe
 * request's token, and errors as pages.
 */
export async function registerWebRequests(
  scope: FastifyInstance,
  deps: { services: Services; sessions: SessionCodec; notices: NoticeCodec; cookies: CookieOptions },
): Promise<void> {
  const { services, sessions, notices } = deps;
  await scope.register(cookie);
  scope.decorateRequest('web', null as unknown as WebState);

  scope.addHook('onRequest', async (request, reply) => {
    // `/api/v4/<x>` can match a page such as `/:namespace/:project/<x>`: the page would answer an
    // API client with a sign-in redirect or the CSRF refusal, where the API's JSON 404 is due.
    if (request.routeOptions.url?.startsWith('/:') && OTHER_DOORS.has(firstSegment(request.url))) return reply.callNotFound();
    const opened = sessions.open(request.cookies[SESSION_COOKIE]);
    let user: User | null = null;
    if (opened) {
      const found = await services.users.findById(opened.userId);
      if (found?.state === 'active' && sessions.matches(opened, found)) user = found;
    }
    if (opened && !user) reply.clearCookie(SESSION_COOKIE, cookieOptions(deps.cookies));
    let csrfCookie = request.cookies[CSRF_COOKIE];
    if (!csrfCookie || csrfCookie.length > 64) {
      csrfCookie = newCsrfCookie();
      reply.setCookie(CSRF_COOKIE, csrfCookie, cookieOptions(deps.cookies));
    }
    const session = user ? opened : undefined;
    // Read for pages asked for, not for forms answered (whose redirects show the next page's).
    const page = request.method === 'GET';
    const chrome = async () => {
      if (!page) return {};
      const [broadcasts, counts] = await Promise.all([
        services.broadcastMessages.active(),
        user ? services.workCounts.of(user.id) : undefined,
      ]);
      return { broadcasts, counts };
    };
    // A notice is for the next page only: taken, then cleared.
    const noticeCookie = page ? request.cookies[NOTICE_COOKIE] : undefined;
    if (noticeCookie !== undefined) reply.clearCookie(NOTICE_COOKIE, cookieOptions(deps.cookies));
    const notice = notices.open(noticeCookie, csrfCookie);
    const flash = (text: string) => {
      reply.setCookie(NOTICE_COOKIE, notices.seal(text, csrfCookie), cookieOptions(deps.cookies, NOTICE_TTL_SECONDS));
    };
    request.web = { user, session, csrfCookie, csrfToken: sessions.csrfToken(csrfCookie, session), chrome, notice, flash };
  });

  // After the body is parsed: the token comes in the form, or in a header for a script's DELETE.
  scope.addHook('preHandler', async (request) => {
    if (!UNSAFE_METHODS.has(request.method)) return;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const token = body.authenticity_token ?? request.headers['x-csrf-token'];
    if (!sessions.validCsrf(request.cookies[CSRF_COOKIE], request.web.session, token)) throw new WebError(403);
  });

  scope.setErrorHandler(async (error: FastifyError, request, reply) => {
    const status = statusOf(error);
    if (status >= 500) request.log.error({ err: error }, 'unhandled error');
    if (!request.web) return reply.status(status).type('text/plain; charset=utf-8').send(errorTitle(status));
    return sendPage(request, reply, errorTitle(status), errorPage(status, error instanceof WebError ? error.detail : undefined), status);
  });
}

/** An answer of the web door's own (a refused form, a throttled sign-in) shown as a page. */
export class WebError extends Error {
  constructor(
    readonly status: number,
    readonly detail?: string,
  ) {
    super(detail ?? String(status));
  }
}

function statusOf(error: FastifyError): number {
  if (error instanceof WebError) return error.status;
  if (error instanceof ApiError) return error.status === 401 ? 404 : error.status;
  if (error.validation) return 400;
  return error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
}

export function pageContext(request: FastifyRequest): PageContext {
  const { user, csrfToken, notice } = request.web;
  return { user, csrfToken, notice };
}

/** What a page needs beyond reading: `live` pages run Forge's own scripts, which fetch from this site and style the spans they add. */
export interface PageOptions {
  live?: boolean;
}

/** The build page's live log fetches its new part, and ansi-to-html writes colours as `style` attributes. */
const LIVE_POLICY = "; connect-src 'self'; style-src-attr 'unsafe-inline'";

/** A whole page; pages that show who is signed in are never cached by others. */
export async function sendPage(
  request: FastifyRequest,
  reply: FastifyReply,
  title: string,
  body: SafeHtml,
  status = 200,
  options: PageOptions = {},
): Promise<FastifyReply> {
  const chrome = await request.web.chrome();
  return reply
    .status(status)
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header(
      'content-security-policy',
      `default-src 'none'; script-src 'self'; style-src 'self'; img-src * data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'${options.live ? LIVE_POLICY : ''}`,
    )
    .type('text/html; charset=utf-8')
    .send(layout({ ...pageContext(request), ...chrome }, title, body).value);
}
