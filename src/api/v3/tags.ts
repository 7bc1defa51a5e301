import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { Release, RepoTag, presentRelease, presentTag } from './entities/tag';
import { notFound } from '../../errors';
import { TextString } from '../shared/params';

const ProjectId = Type.Object({ id: Type.String() });
/** Tag names may hold `/` (encoded or not) and dots, so the name is the rest of the path. */
const TagPath = Type.Object({ id: Type.String(), '*': Type.String() });
const ReleaseBody = Type.Object({ description: TextString() });

/** `<tag>/release`: the tag is everything before the last segment. */
function releaseTag(rest: string): string {
  const slash = rest.lastIndexOf('/');
  if (slash <= 0 || rest.slice(slash + 1) !== 'release') throw notFound();
  return rest.slice(0, slash);
}

/** Tags of a project's repository and their release notes (GitLab's `tags.rb`). */
export function tagsRoutes(api: Api, { services }: RouteDeps): void {
  const tags = services.tags;

  api.get(
    '/projects/:id/repository/tags',
    {
      config: { project: 'download_code' },
      schema: { params: ProjectId, querystring: Type.Object({}), response: { 200: Type.Array(RepoTag) } },
    },
    async (request) => (await tags.list(request.project)).map(presentTag),
  );

  api.get(
    '/projects/:id/repository/tags/*',
    {
      config: { project: 'download_code' },
      schema: { params: TagPath, querystring: Type.Object({}), response: { 200: RepoTag } },
    },
    async (request) => presentTag(await tags.find(request.project, request.params['*'])),
  );

  // 8.12 required neither name nor ref and failed with a 500 without them; here they are required.
  api.post(
    '/projects/:id/repository/tags',
    {
      config: { project: 'push_code' },
      schema: {
        params: ProjectId,
        body: Type.Object({
          tag_name: Type.String(),
          ref: Type.String(),
          message: Type.Optional(TextString({ description: 'makes an annotated tag' })),
          release_description: Type.Optional(TextString()),
        }),
        response: { 201: RepoTag },
      },
    },
    async (request, reply) => {
      const { tag_name: name, ref, message, release_description: releaseDescription } = request.body;
      const tag = await tags.create(request.project, request.user!, { name, ref, message, releaseDescription });
      return reply.status(201).send(presentTag(tag));
    },
  );

  api.delete(
    '/projects/:id/repository/tags/*',
    {
      config: { project: 'push_code' },
      schema: { params: TagPath, querystring: Type.Object({}), response: { 200: Type.Object({ tag_name: Type.String() }) } },
    },
    async (request) => {
      await tags.remove(request.project, request.user!.id, request.params['*']);
      return { tag_name: request.params['*'] };
    },
  );

  api.post(
    '/projects/:id/repository/tags/*',
    {
      config: { project: 'push_code' },
      schema: { params: TagPath, body: ReleaseBody, response: { 201: Release } },
    },
    async (request, reply) => {
      const release = await tags.createRelease(request.project, releaseTag(request.params['*']), request.body.description);
      return reply.status(201).send(presentRelease(release));
    },
  );

  api.put(
    '/projects/:id/repository/tags/*',
    {
      config: { project: 'push_code' },
      schema: { params: TagPath, body: ReleaseBody, response: { 200: Release } },
    },
    async (request) => presentRelease(await tags.updateRelease(request.project, releaseTag(request.params['*']), request.body.description)),
  );
}
