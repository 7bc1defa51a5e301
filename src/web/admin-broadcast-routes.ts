import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services/index';
import { PAGE, pageContext, sendPage } from './request';
import { fieldErrors } from './form-errors';
import { recordId } from './pipeline-routes';
import { pageNumber } from './pages/pager';
import { ADMIN_PER_PAGE, adminWindow, administrator, TokenBody } from './admin-guard';
import { broadcastMessagesPage, type BroadcastForm } from './pages/admin/broadcast-messages';
import { redirectWithNotice } from './flash';

const PageQuery = Type.Object({ page: Type.Optional(Type.String({ maxLength: 10 })) });
const MessageBody = Type.Object({
  authenticity_token: Type.Optional(Type.String({ maxLength: 255 })),
  message: Type.Optional(Type.String({ maxLength: 65535 })),
  starts_at: Type.Optional(Type.String({ maxLength: 255 })),
  ends_at: Type.Optional(Type.String({ maxLength: 255 })),
  preview: Type.Optional(Type.String({ maxLength: 1 })),
});

const EMPTY = { message: '', starts_at: '', ends_at: '' };

/**
 * Broadcast messages (GitLab 8.12's `/admin/broadcast_messages`): the list, a new one (previewed
 * first if asked) and removal, through the service `POST` and `DELETE /broadcast_messages` use.
 * Every page shows the active ones (`layout.ts`).
 */
export function adminBroadcastRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  const show = async (request: FastifyRequest, reply: FastifyReply, page: number, form: Omit<BroadcastForm, 'csrfToken'>) => {
    const { messages, total } = await services.broadcastMessages.list(adminWindow(page));
    const body = broadcastMessagesPage(
      { items: messages, page, perPage: ADMIN_PER_PAGE, total },
      { csrfToken: pageContext(request).csrfToken, ...form },
    );
    return sendPage(request, reply, 'Broadcast messages · Admin area', body, form.errors ? 400 : 200);
  };

  pages.get<{ Querystring: typeof PageQuery.static }>(
    '/admin/broadcast_messages',
    { config: PAGE, schema: { querystring: PageQuery } },
    async (request, reply) => {
      administrator(request);
      return show(request, reply, pageNumber(request.query.page), { values: EMPTY });
    },
  );

  pages.post<{ Body: typeof MessageBody.static }>(
    '/admin/broadcast_messages',
    { config: PAGE, schema: { body: MessageBody } },
    async (request, reply) => {
      administrator(request);
      const values = { message: request.body.message ?? '', starts_at: request.body.starts_at ?? '', ends_at: request.body.ends_at ?? '' };
      if (request.body.preview) return show(request, reply, 1, { values, preview: true });
      try {
        // Blank times are the API's omitted ones: now, and an hour on.
        await services.broadcastMessages.create({
          message: values.message,
          ...(values.starts_at.trim() ? { starts_at: values.starts_at } : {}),
          ...(values.ends_at.trim() ? { ends_at: values.ends_at } : {}),
        });
      } catch (error) {
        const errors = fieldErrors(error);
        if (!errors) throw error;
        return show(request, reply, 1, { values, errors });
      }
      return redirectWithNotice(request, reply, '/admin/broadcast_messages', 'Broadcast Message was successfully created.');
    },
  );

  pages.post<{ Params: { id: string } }>(
    '/admin/broadcast_messages/:id/delete',
    { config: PAGE, schema: { body: TokenBody } },
    async (request, reply) => {
      administrator(request);
      await services.broadcastMessages.delete(recordId(request.params.id));
      return redirectWithNotice(request, reply, '/admin/broadcast_messages', 'Broadcast Message was successfully updated.');
    },
  );
}
