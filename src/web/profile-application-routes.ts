import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../errors';
import type { Services } from '../services/index';
import type { User } from '../services/users/users';
import { PAGE, pageContext, sendPage } from './request';
import { fieldErrors } from './form-errors';
import { recordId } from './pipeline-routes';
import { applicationsPage, type ApplicationsForm } from './pages/profile/applications';

const TokenBody = Type.Object({ authenticity_token: Type.Optional(Type.String({ maxLength: 255 })) });
const ApplicationBody = Type.Object({
  authenticity_token: Type.Optional(Type.String({ maxLength: 255 })),
  name: Type.Optional(Type.String({ maxLength: 255 })),
  redirect_uri: Type.Optional(Type.String({ maxLength: 2048 })),
  scopes: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Array(Type.String({ maxLength: 64 }), { maxItems: 16 })])),
  confidential: Type.Optional(Type.String({ maxLength: 1 })),
});

/**
 * `/profile/applications` (GitLab's "Applications" under the profile): OAuth2 applications a user
 * registers for themselves, through the service `POST /api/v4/applications` uses for
 * administrators', and the applications the user authorized, each to revoke.
 */
export function profileApplicationRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  const me = (request: FastifyRequest): User => {
    if (!request.web.user) throw notFound();
    return request.web.user;
  };
  const show = async (request: FastifyRequest, reply: FastifyReply, form: Partial<ApplicationsForm> = {}, status = 200) => {
    const user = me(request);
    const [owned, authorized] = await Promise.all([
      services.oauth.listOwnedApplications(user.id),
      services.oauth.authorizedApplications(user.id),
    ]);
    const page = applicationsPage({ csrfToken: pageContext(request).csrfToken, owned, authorized, ...form });
    return sendPage(request, reply, 'Applications', page, status);
  };

  pages.get('/profile/applications', { config: PAGE }, async (request, reply) => {
    if (!request.web.user) return reply.redirect(`/users/sign_in?redirect_to=${encodeURIComponent(request.url)}`, 303);
    return show(request, reply);
  });

  pages.post<{ Body: Static<typeof ApplicationBody> }>(
    '/profile/applications',
    { config: PAGE, schema: { body: ApplicationBody } },
    async (request, reply) => {
      const user = me(request);
      const { name = '', redirect_uri = '', scopes, confidential } = request.body;
      const values = { name, redirect_uri, scopes: [scopes ?? []].flat(), confidential: confidential === '1' };
      try {
        const created = await services.oauth.createApplication(
          { name, redirect_uri, scopes: values.scopes.join(' '), confidential: values.confidential },
          user.id,
        );
        // The secret exists only in this answer: the page is shown here, not after a redirect.
        return show(request, reply, { created }, 201);
      } catch (error) {
        const errors = fieldErrors(error);
        if (!errors) throw error;
        return show(request, reply, { values, errors }, 400);
      }
    },
  );

  pages.post<{ Params: { id: string } }>(
    '/profile/applications/:id/delete',
    { config: PAGE, schema: { body: TokenBody } },
    async (request, reply) => {
      if (!(await services.oauth.deleteOwnedApplication(recordId(request.params.id), me(request).id))) throw notFound();
      return reply.redirect('/profile/applications', 303);
    },
  );

  pages.post<{ Params: { id: string } }>(
    '/profile/applications/authorized/:id/revoke',
    { config: PAGE, schema: { body: TokenBody } },
    async (request, reply) => {
      if (!(await services.oauth.revokeAuthorization(me(request).id, recordId(request.params.id)))) throw notFound();
      return reply.redirect('/profile/applications', 303);
    },
  );
}
