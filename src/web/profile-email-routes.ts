import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../errors';
import type { Services } from '../services/index';
import type { User } from '../services/users/users';
import { PAGE, pageContext, sendPage } from './request';
import { fieldErrors, type FieldErrors } from './form-errors';
import { recordId } from './pipeline-routes';
import { emailsPage } from './pages/profile/emails';
import { redirectWithNotice } from './flash';

const TokenBody = Type.Object({ authenticity_token: Type.Optional(Type.String({ maxLength: 255 })) });
const EmailBody = Type.Object({
  authenticity_token: Type.Optional(Type.String({ maxLength: 255 })),
  email: Type.Optional(Type.String({ maxLength: 1024 })),
});

/** The signed-in user's secondary e-mails (GitLab 8.12's `/profile/emails`), through the service `POST` and `DELETE /user/emails` use. */
export function profileEmailRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  const me = (request: FastifyRequest): User => {
    if (!request.web.user) throw notFound();
    return request.web.user;
  };
  const show = async (request: FastifyRequest, reply: FastifyReply, form: { value?: string; errors?: FieldErrors } = {}) => {
    const user = me(request);
    const emails = await services.emails.listOwn(user.id);
    const page = emailsPage({ csrfToken: pageContext(request).csrfToken, primary: user.email, emails, ...form });
    return sendPage(request, reply, 'Emails', page, form.errors ? 400 : 200);
  };

  pages.get('/profile/emails', { config: PAGE }, async (request, reply) => {
    if (!request.web.user) return reply.redirect(`/users/sign_in?redirect_to=${encodeURIComponent(request.url)}`, 303);
    return show(request, reply);
  });

  pages.post<{ Body: typeof EmailBody.static }>(
    '/profile/emails',
    { config: PAGE, schema: { body: EmailBody } },
    async (request, reply) => {
      const value = (request.body.email ?? '').trim();
      try {
        await services.emails.createOwn(me(request).id, value);
      } catch (error) {
        const errors = fieldErrors(error, ['email']);
        if (!errors) throw error;
        return show(request, reply, { value, errors });
      }
      return redirectWithNotice(request, reply, '/profile/emails', 'Email was successfully added.');
    },
  );

  pages.post<{ Params: { id: string } }>(
    '/profile/emails/:id/delete',
    { config: PAGE, schema: { body: TokenBody } },
    async (request, reply) => {
      if (!(await services.emails.removeOwn(me(request).id, recordId(request.params.id)))) throw notFound();
      return redirectWithNotice(request, reply, '/profile/emails', 'Email was successfully removed.');
    },
  );
}
