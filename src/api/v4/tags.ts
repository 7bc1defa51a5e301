import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { NameString, TextString } from '../shared/params';
import { Release, Tag4, presentRelease, presentTag } from './entities/tag';

const ProjectId = Type.Object({ id: Type.String() });
/** A tag name with `/` is one URL-encoded segment (`v1%2F0`), decoded by the router. */
const TagPath = Type.Object({ id: Type.String(), tag_name: NameString() });
const Paging = { page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) };
const ReleaseBody = Type.Object({ description: TextString() });

/** Tags of a project's repository and their release notes (GitLab 9–11's `tags.rb`). */
export function tagsRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const tags = services.tags;
  const read = { access: 'optional', project: 'download_code' } as const;

  api.get(
    '/projects/:id/repository/tags',
    { config: read, schema: { params: ProjectId, querystring: Type.Object(Paging), response: { 200: Type.Array(Tag4) } } },
    async (request, reply) => {
      const all = await tags.list(request.project);
      const page = pageOf(request.query);
      setPageHeaders(request, reply, presenter.externalUrl, page, all.length);
      return all.slice(page.offset, page.offset + page.limit).map(presentTag);
    },
  );

  api.get(
    '/projects/:id/repository/tags/:tag_name',
    { config: read, schema: { params: TagPath, response: { 200: Tag4 } } },
    async (request) => presentTag(await tags.find(request.project, request.params.tag_name)),
  );

  api.post(
    '/projects/:id/repository/tags',
    {
      config: { project: 'push_code' },
      schema: {
        params: ProjectId,
        body: Type.Object({
          tag_name: NameString(),
          ref: NameString(),
          message: Type.Optional(TextString({ description: 'makes an annotated tag' })),
          release_description: Type.Optional(TextString()),
        }),
        response: { 201: Tag4 },
      },
    },
    async (request, reply) => {
      const { tag_name: name, ref, message, release_description: releaseDescription } = request.body;
      const tag = await tags.create(request.project, request.user!, { name, ref, message, releaseDescription });
      return reply.status(201).send(presentTag(tag));
    },
  );

  api.delete(
    '/projects/:id/repository/tags/:tag_name',
    { config: { project: 'push_code' }, schema: { params: TagPath, response: { 204: Type.Null() } } },
    async (request, reply) => {
      await tags.remove(request.project, request.user!.id, request.params.tag_name);
      return reply.status(204).send(null);
    },
  );

  api.post(
    '/projects/:id/repository/tags/:tag_name/release',
    { config: { project: 'push_code' }, schema: { params: TagPath, body: ReleaseBody, response: { 201: Release } } },
    async (request, reply) => {
      const release = await tags.createRelease(request.project, request.params.tag_name, request.body.description);
      return reply.status(201).send(presentRelease(release));
    },
  );

  api.put(
    '/projects/:id/repository/tags/:tag_name/release',
    { config: { project: 'push_code' }, schema: { params: TagPath, body: ReleaseBody, response: { 200: Release } } },
    async (request) => presentRelease(await tags.updateRelease(request.project, request.params.tag_name, request.body.description)),
  );
}
