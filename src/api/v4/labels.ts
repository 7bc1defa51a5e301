import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Api, RouteDeps } from '../shared/types';
import { Label, presentLabel } from './entities/label';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { givenAttributes, TextString } from '../shared/params';
import { notGiven } from '../../errors';
import { Loose, PageParams } from './issuable-params';

const ProjectId = Type.Object({ id: Type.String() });
// A label by id or, failing that, by title (python-gitlab names labels by title).
const LabelPath = Type.Object({ id: Type.String(), label_id: TextString() });
const NoParams = Type.Object({});
const NotModified = { 304: Type.Null({ description: 'nothing changed' }) };
const Removed = { 204: Type.Null({ description: 'removed' }) };
// Titles and colours are checked by the service; `priority` is accepted and not kept (Forge has no priorities).
const CreateBody = Type.Object({ name: TextString(), color: TextString(), description: Type.Optional(TextString()), priority: Loose });
const Changes = {
  new_name: Type.Optional(TextString()),
  color: Type.Optional(TextString()),
  description: Type.Optional(TextString()),
  priority: Loose,
};
// The label to change is named by `label_id` or `name` (one of them).
const UpdateBody = Type.Object({ label_id: Loose, name: Type.Optional(TextString()), ...Changes });
const DeleteQuery = Type.Object({ label_id: Loose, name: Type.Optional(TextString()) });

/**
 * A project's labels in v4 (GitLab 11's `labels.rb`): with their ids, paginated; a label named by
 * id or title, in the path or by `label_id`/`name`. Readers list them, reporters manage them.
 */
export function labelsRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { labels, subscriptions } = services;

  /** The title of the label the caller names (the service changes labels by title). */
  const titleOf = async (request: FastifyRequest, given: { label_id?: unknown; name?: string }): Promise<string> => {
    const idOrTitle =
      given.label_id !== undefined && given.label_id !== null && given.label_id !== '' ? String(given.label_id) : given.name;
    if (idOrTitle === undefined || idOrTitle === '') throw notGiven('label_id');
    return (await labels.findByIdOrTitle(request.project.id, request.standing, idOrTitle)).title;
  };

  api.get(
    '/projects/:id/labels',
    {
      config: { access: 'optional', project: 'read_label' },
      schema: { params: ProjectId, querystring: Type.Object(PageParams), response: { 200: Type.Array(Label) } },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const list = await labels.list(request.project.id, request.standing);
      setPageHeaders(request, reply, presenter.externalUrl, page, list.length);
      return list.slice(page.offset, page.offset + page.limit).map(presentLabel);
    },
  );

  api.get(
    '/projects/:id/labels/:label_id',
    {
      config: { access: 'optional', project: 'read_label' },
      schema: { params: LabelPath, querystring: NoParams, response: { 200: Label } },
    },
    async (request) => presentLabel(await labels.findByIdOrTitle(request.project.id, request.standing, request.params.label_id)),
  );

  api.post(
    '/projects/:id/labels',
    { config: { project: 'admin_label' }, schema: { params: ProjectId, body: CreateBody, response: { 201: Label } } },
    async (request, reply) => {
      const { name, color, description } = request.body;
      const created = await labels.create(request.project.id, request.standing, { name, color, ...givenAttributes({ description }) });
      return reply.status(201).send(presentLabel(created));
    },
  );

  const update = async (request: FastifyRequest, title: string, body: { new_name?: string; color?: string; description?: string }) => {
    const { new_name, color, description } = body;
    return presentLabel(
      await labels.update(request.project.id, request.standing, title, givenAttributes({ new_name, color, description })),
    );
  };

  api.put(
    '/projects/:id/labels',
    { config: { project: 'admin_label' }, schema: { params: ProjectId, body: UpdateBody, response: { 200: Label } } },
    async (request) => update(request, await titleOf(request, request.body), request.body),
  );

  api.put(
    '/projects/:id/labels/:label_id',
    { config: { project: 'admin_label' }, schema: { params: LabelPath, body: Type.Object(Changes), response: { 200: Label } } },
    async (request) => update(request, await titleOf(request, { label_id: request.params.label_id }), request.body),
  );

  api.delete(
    '/projects/:id/labels',
    { config: { project: 'admin_label' }, schema: { params: ProjectId, querystring: DeleteQuery, response: Removed } },
    async (request, reply) => {
      await labels.delete(request.project.id, await titleOf(request, request.query));
      return reply.status(204).send(null);
    },
  );

  api.delete(
    '/projects/:id/labels/:label_id',
    { config: { project: 'admin_label' }, schema: { params: LabelPath, querystring: NoParams, response: Removed } },
    async (request, reply) => {
      await labels.delete(request.project.id, await titleOf(request, { label_id: request.params.label_id }));
      return reply.status(204).send(null);
    },
  );

  for (const [action, subscribed] of [
    ['subscribe', true],
    ['unsubscribe', false],
  ] as const) {
    api.post(
      `/projects/:id/labels/:label_id/${action}`,
      {
        config: { project: 'read_label' },
        schema: { params: LabelPath, body: Type.Optional(NoParams), response: { 201: Label, ...NotModified } },
      },
      async (request, reply) => {
        const { project, standing } = request;
        const label = subscribed
          ? await subscriptions.subscribeToLabel(project, standing, request.params.label_id)
          : await subscriptions.unsubscribeFromLabel(project, standing, request.params.label_id);
        return reply.status(201).send(presentLabel(label));
      },
    );
  }
}
