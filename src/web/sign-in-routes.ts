import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../errors';
import type { Services } from '../services/index';
import type { User } from '../services/users/users';
import { CSRF_COOKIE, newCsrfCookie, SESSION_COOKIE, SESSION_TTL_MS, type SessionCodec } from './session';
import { cookieOptions, PAGE, sendPage, type CookieOptions } from './request';
import { signInPage } from './pages/sign-in';
import { localPath } from './paths';
import type { SignInThrottle } from './throttle';

export interface SignInDeps {
  services: Services;
  sessions: SessionCodec;
  throttle: SignInThrottle;
  cookies: CookieOptions;
}

const SignInBody = Type.Object({
  login: Type.Optional(Type.String({ maxLength: 255 })),
  password: Type.Optional(Type.String({ maxLength: 1024 })),
  authenticity_token: Type.Optional(Type.String({ maxLength: 255 })),
  redirect_to: Type.Optional(Type.String({ maxLength: 2048 })),
});

const TokenBody = Type.Object({ authenticity_token: Type.Optional(Type.String({ maxLength: 255 })) });

/** Signing in and out (GitLab 8.12's `/users/sign_in`, `/users/sign_out`). */
export function signInRoutes(pages: FastifyInstance, { services, sessions, throttle, cookies }: SignInDeps): void {
  pages.get<{ Querystring: { redirect_to?: string } }>(
    '/users/sign_in',
    { config: PAGE, schema: { querystring: Type.Object({ redirect_to: Type.Optional(Type.String({ maxLength: 2048 })) }) } },
    async (request, reply) => {
      const redirectTo = localPath(request.query.redirect_to);
      if (request.web.user) return reply.redirect(redirectTo ?? '/');
      return sendPage(request, reply, 'Sign in', signInPage({ csrfToken: request.web.csrfToken, redirectTo }));
    },
  );

  pages.post<{ Body: typeof SignInBody.static }>(
    '/users/sign_in',
    { config: PAGE, schema: { body: SignInBody } },
    async (request, reply) => {
      const login = request.body.login ?? '';
      const redirectTo = localPath(request.body.redirect_to);
      const again = (status: number, error: string) =>
        sendPage(request, reply, 'Sign in', signInPage({ csrfToken: request.web.csrfToken, login, redirectTo, error }), status);
      if (throttle.blocked(login, request.ip)) return again(429, 'Too many failed attempts. Please try again later.');
      let user: User;
      try {
        user = await services.users.login(login, request.body.password);
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 401) throw error;
        throttle.failed(login, request.ip);
        return again(401, 'Invalid login or password.');
      }
      throttle.succeeded(login, request.ip);
      const { value } = sessions.seal(user);
      // A new CSRF cookie with the new session: nothing a page showed before signing in stays valid.
      reply.setCookie(SESSION_COOKIE, value, cookieOptions(cookies, SESSION_TTL_MS / 1000));
      reply.setCookie(CSRF_COOKIE, newCsrfCookie(), cookieOptions(cookies));
      return reply.redirect(redirectTo ?? '/', 303);
    },
  );

  const signOut = async (_request: unknown, reply: FastifyReply) => {
    reply.clearCookie(SESSION_COOKIE, cookieOptions(cookies));
    reply.setCookie(CSRF_COOKIE, newCsrfCookie(), cookieOptions(cookies));
    return reply.redirect('/', 303);
  };
  pages.post('/users/sign_out', { config: PAGE, schema: { body: TokenBody } }, signOut);
  pages.delete('/users/sign_out', { config: PAGE, schema: { body: TokenBody } }, signOut);
}
