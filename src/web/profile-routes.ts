import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../errors';
import type { Services } from '../services/index';
import type { User } from '../services/users/users';
import { PAGE, pageContext, sendPage } from './request';
import { fieldErrors } from './form-errors';
import { recordId } from './pipeline-routes';
import { profilePage } from './pages/profile/profile';
import { keysPage } from './pages/profile/keys';
import { accountPage } from './pages/profile/account';
import { redirectWithNotice } from './flash';

const Token = { authenticity_token: Type.Optional(Type.String({ maxLength: 255 })) };
const ProfileBody = Type.Object({
  ...Token,
  name: Type.Optional(Type.String({ maxLength: 1024 })),
  email: Type.Optional(Type.String({ maxLength: 1024 })),
});
const PasswordBody = Type.Object({
  ...Token,
  current_password: Type.Optional(Type.String({ maxLength: 1024 })),
  password: Type.Optional(Type.String({ maxLength: 1024 })),
  password_confirmation: Type.Optional(Type.String({ maxLength: 1024 })),
});
const KeyBody = Type.Object({
  ...Token,
  title: Type.Optional(Type.String({ maxLength: 1024 })),
  key: Type.Optional(Type.String({ maxLength: 16384 })),
});
const TokenBody = Type.Object(Token);

/**
 * The signed-in user's own settings (GitLab 8.12's `/profile`, `/profile/keys`, `/profile/account`),
 * through the same services and validations as the API. Anonymous visitors are sent to sign in
 * (and back); a form they post is a 404.
 */
export function profileRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  const me = (request: FastifyRequest): User => {
    if (!request.web.user) throw notFound();
    return request.web.user;
  };
  const signInFirst = (request: FastifyRequest, reply: FastifyReply) =>
    reply.redirect(`/users/sign_in?redirect_to=${encodeURIComponent(request.url)}`, 303);

  const showProfile = (request: FastifyRequest, reply: FastifyReply, form: Partial<Parameters<typeof profilePage>[0]>, status = 200) => {
    const user = me(request);
    const page = profilePage({ csrfToken: pageContext(request).csrfToken, values: { name: user.name, email: user.email }, ...form });
    return sendPage(request, reply, 'Profile', page, status);
  };

  pages.get('/profile', { config: PAGE }, async (request, reply) => {
    if (!request.web.user) return signInFirst(request, reply);
    return showProfile(request, reply, {});
  });

  pages.post<{ Body: typeof ProfileBody.static }>('/profile', { config: PAGE, schema: { body: ProfileBody } }, async (request, reply) => {
    const user = me(request);
    const values = { name: request.body.name ?? '', email: request.body.email ?? '' };
    try {
      const updated = await services.users.update(user.id, { name: values.name, email: values.email });
      return showProfile(request, reply, {
        values: { name: updated.name, email: updated.email },
        notice: 'Profile was successfully updated.',
      });
    } catch (error) {
      const errors = fieldErrors(error, ['email', 'name']);
      if (!errors) throw error;
      return showProfile(request, reply, { values, errors }, 400);
    }
  });

  pages.post<{ Body: typeof PasswordBody.static }>(
    '/profile/password',
    { config: PAGE, schema: { body: PasswordBody } },
    async (request, reply) => {
      const user = me(request);
      try {
        await services.users.changePassword(user.id, {
          current: request.body.current_password ?? '',
          password: request.body.password ?? '',
          confirmation: request.body.password_confirmation ?? '',
        });
      } catch (error) {
        const errors = fieldErrors(error, ['password']);
        if (!errors) throw error;
        return showProfile(request, reply, { passwordErrors: errors }, 400);
      }
      // Every session made with the old password has ended, this one too: sign in with the new one.
      return redirectWithNotice(request, reply, '/users/sign_in', 'Password was successfully updated. Please login with it');
    },
  );

  const showKeys = async (
    request: FastifyRequest,
    reply: FastifyReply,
    form: Partial<Parameters<typeof keysPage>[0]> = {},
    status = 200,
  ) => {
    const keys = await services.keys.listOwn(me(request).id);
    return sendPage(request, reply, 'SSH Keys', keysPage({ csrfToken: pageContext(request).csrfToken, keys, ...form }), status);
  };

  pages.get('/profile/keys', { config: PAGE }, async (request, reply) => {
    if (!request.web.user) return signInFirst(request, reply);
    return showKeys(request, reply);
  });

  pages.post<{ Body: typeof KeyBody.static }>('/profile/keys', { config: PAGE, schema: { body: KeyBody } }, async (request, reply) => {
    const user = me(request);
    const values = { title: request.body.title ?? '', key: request.body.key ?? '' };
    try {
      await services.keys.createOwn(user, { title: values.title, key: values.key.trim() });
    } catch (error) {
      const errors = fieldErrors(error, ['title', 'key']);
      if (!errors) throw error;
      return showKeys(request, reply, { values, errors }, 400);
    }
    return redirectWithNotice(request, reply, '/profile/keys', 'Key was successfully added.');
  });

  pages.post<{ Params: { id: string } }>(
    '/profile/keys/:id/delete',
    { config: PAGE, schema: { body: TokenBody } },
    async (request, reply) => {
      const user = me(request);
      const removed = await services.keys.removeOwn(user, recordId(request.params.id));
      if (!removed) throw notFound();
      return redirectWithNotice(request, reply, '/profile/keys', 'Key was successfully removed.');
    },
  );

  pages.get('/profile/account', { config: PAGE }, async (request, reply) => {
    if (!request.web.user) return signInFirst(request, reply);
    const privateToken = services.users.privateToken(request.web.user);
    return sendPage(request, reply, 'Account', accountPage({ csrfToken: pageContext(request).csrfToken, privateToken }));
  });

  // The router does not fall back from `/profile/…` to `/:namespace/:project`: other paths are the web door's 404 page.
  pages.get('/profile/*', { config: PAGE }, async () => {
    throw notFound();
  });

  pages.post('/profile/reset_private_token', { config: PAGE, schema: { body: TokenBody } }, async (request, reply) => {
    const privateToken = await services.users.resetPrivateToken(me(request).id);
    const page = accountPage({ csrfToken: pageContext(request).csrfToken, privateToken, notice: 'Your private token was reset.' });
    return sendPage(request, reply, 'Account', page);
  });
}
