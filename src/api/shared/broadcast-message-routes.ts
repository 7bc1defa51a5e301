import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from './types';
import { BroadcastMessage, presentBroadcastMessage } from './entities/broadcast-message';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { NameString, TextString, RecordId } from './params';

const MessageId = Type.Object({ id: RecordId });

const displayParams = {
  starts_at: Type.Optional(NameString({ description: 'default now' })),
  ends_at: Type.Optional(NameString({ description: 'default one hour after now' })),
  color: Type.Optional(NameString({ description: 'background, `#` and 3 or 6 hex digits; default #E75E40' })),
  font: Type.Optional(NameString({ description: 'foreground, `#` and 3 or 6 hex digits; default #FFFFFF' })),
};

// Administrators only: anonymous callers get 401, other users 403 (spec, Authentication rule 3).
// Every parameter is Grape-declared in GitLab, hence `grapeParams`.
const config = { access: 'admin', grapeParams: true } as const;

/** Broadcast messages for either door: v3 answers a removal with the message, v4 (GitLab 11) with 204. */
export function broadcastMessageRoutes(api: Api, { services, presenter }: RouteDeps, door: { removalAnswersMessage: boolean }): void {
  const messages = services.broadcastMessages;

  api.get(
    '/broadcast_messages',
    {
      config,
      schema: {
        querystring: Type.Object({ page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) }),
        response: { 200: Type.Array(BroadcastMessage) },
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const result = await messages.list(page);
      setPageHeaders(request, reply, presenter.externalUrl, page, result.total);
      return result.messages.map(presentBroadcastMessage);
    },
  );

  api.get(
    '/broadcast_messages/:id',
    {
      config,
      schema: { params: MessageId, response: { 200: BroadcastMessage } },
    },
    async (request) => presentBroadcastMessage(await messages.find(request.params.id)),
  );

  api.post(
    '/broadcast_messages',
    {
      config,
      schema: { body: Type.Object({ message: TextString(), ...displayParams }), response: { 201: BroadcastMessage } },
    },
    async (request, reply) => reply.status(201).send(presentBroadcastMessage(await messages.create(request.body))),
  );

  api.put(
    '/broadcast_messages/:id',
    {
      config,
      schema: {
        params: MessageId,
        body: Type.Object({ message: Type.Optional(TextString()), ...displayParams }),
        response: { 200: BroadcastMessage },
      },
    },
    async (request) => presentBroadcastMessage(await messages.update(request.params.id, request.body)),
  );

  api.delete(
    '/broadcast_messages/:id',
    { config, schema: { params: MessageId, response: door.removalAnswersMessage ? { 200: BroadcastMessage } : { 204: Type.Null() } } },
    async (request, reply) => {
      const removed = await messages.delete(request.params.id);
      return door.removalAnswersMessage ? presentBroadcastMessage(removed) : reply.status(204).send(null);
    },
  );
}
