import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { Label, LabelRecord, presentLabel, presentLabelRecord } from './entities/label';
import { TextString, givenAttributes } from '../shared/params';

const ProjectId = Type.Object({ id: Type.String() });
// Titles and colours are checked by the service, with 8.12's messages beside the record's other errors.
const CreateBody = Type.Object({ name: TextString(), color: TextString(), description: Type.Optional(TextString()) });
const UpdateBody = Type.Object({
  name: TextString(),
  new_name: Type.Optional(TextString()),
  color: Type.Optional(TextString()),
  description: Type.Optional(TextString()),
});
const DeleteQuery = Type.Object({ name: TextString() });

/**
 * A project's labels, named by title (8.12 had no label ids in this API): anyone who reads the
 * project lists them, reporters create, change and remove them. Both need issues or merge requests on.
 */
export function labelsRoutes(api: Api, { services }: RouteDeps): void {
  const { labels } = services;

  // Every label at once, by title: 8.12 did not paginate them.
  api.get(
    '/projects/:id/labels',
    {
      config: { project: 'read_label' },
      schema: { params: ProjectId, querystring: Type.Object({}), response: { 200: Type.Array(Label) } },
    },
    async (request) => (await labels.list(request.project.id, request.standing)).map(presentLabel),
  );

  // `required_attributes! [:name, :color]`: a missing or blank one is `400 (Bad request) "name" not given`, name first.
  api.post(
    '/projects/:id/labels',
    {
      config: { project: 'admin_label' },
      schema: { params: ProjectId, body: CreateBody, response: { 201: Label } },
    },
    async (request, reply) => {
      const { name, color, description } = request.body;
      const created = await labels.create(request.project.id, request.standing, { name, color, ...givenAttributes({ description }) });
      return reply.status(201).send(presentLabel(created));
    },
  );

  api.put(
    '/projects/:id/labels',
    {
      config: { project: 'admin_label' },
      schema: { params: ProjectId, body: UpdateBody, response: { 200: Label } },
    },
    async (request) => {
      const { name, new_name, color, description } = request.body;
      return presentLabel(
        await labels.update(request.project.id, request.standing, name, givenAttributes({ new_name, color, description })),
      );
    },
  );

  api.delete(
    '/projects/:id/labels',
    {
      config: { project: 'admin_label' },
      schema: { params: ProjectId, querystring: DeleteQuery, response: { 200: LabelRecord } },
    },
    async (request) => presentLabelRecord(await labels.delete(request.project.id, request.query.name)),
  );
}
