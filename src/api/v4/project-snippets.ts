import { Type, type Static } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Api, RouteDeps } from '../shared/types';
import type { SnippetParams, SnippetRow } from '../../services/snippets/project-snippets';
import { ProjectSnippet, presentProjectSnippet } from './entities/snippet';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { projectUrls } from '../../lib/urls';
import { INTERNAL, PRIVATE, PUBLIC } from '../../services/policy';
import { grapeError } from '../../errors';
import { NameString, RecordId, TextString } from '../shared/params';
import { PageParams } from './issuable-params';

const ProjectId = Type.Object({ id: Type.String() });
const SnippetPath = Type.Object({ id: Type.String(), snippet_id: RecordId });
const NoParams = Type.Object({});
// The service asks for the required fields, blank counting as missing. GitLab 11 called the text
// `code`, python-gitlab sends `content`: either is taken. `description` is accepted and not kept.
const SnippetBody = Type.Object({
  title: Type.Optional(NameString()),
  file_name: Type.Optional(NameString()),
  code: Type.Optional(TextString()),
  content: Type.Optional(TextString()),
  description: Type.Optional(TextString()),
  visibility: Type.Optional(Type.String()),
});
const RawResponse = { 200: { description: "the snippet's content", content: { 'text/plain': { schema: Type.String() } } } };
const LEVELS: Record<string, number> = { private: PRIVATE, internal: INTERNAL, public: PUBLIC };

/** The body as the service reads it: the content under its one name, the visibility as a level. */
function snippetParams(body: Static<typeof SnippetBody>, creating: boolean): SnippetParams {
  const { visibility } = body;
  if (visibility !== undefined && visibility !== '' && !Object.hasOwn(LEVELS, visibility)) {
    throw grapeError(400, 'visibility does not have a valid value');
  }
  const level = visibility === undefined || visibility === '' ? undefined : LEVELS[visibility];
  return {
    title: body.title,
    file_name: body.file_name,
    code: body.code ?? body.content,
    // A snippet made without a visibility is private.
    visibility_level: level ?? (creating ? PRIVATE : undefined),
  };
}

const readSnippets = { access: 'optional', project: 'read_project_snippet' } as const;

/** A project's snippets in v4: readers see them by their visibility, reporters write them, their authors (and admins) change and remove them. */
export function projectSnippetsRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { projectSnippets, users } = services;

  const present = async (request: FastifyRequest, snippets: SnippetRow[]) => {
    const authors = await users.findMany(snippets.flatMap((snippet) => (snippet.author_id === null ? [] : [snippet.author_id])));
    const { web } = projectUrls(presenter, request.project);
    return snippets.map((snippet) => presentProjectSnippet(snippet, web, authors, presenter));
  };
  const presentOne = async (request: FastifyRequest, snippet: SnippetRow) => (await present(request, [snippet]))[0];

  api.get(
    '/projects/:id/snippets',
    {
      config: readSnippets,
      schema: { params: ProjectId, querystring: Type.Object(PageParams), response: { 200: Type.Array(ProjectSnippet) } },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { snippets, total } = await projectSnippets.list(request.project, request.standing, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return present(request, snippets);
    },
  );

  api.get(
    '/projects/:id/snippets/:snippet_id',
    { config: readSnippets, schema: { params: SnippetPath, querystring: NoParams, response: { 200: ProjectSnippet } } },
    async (request) => presentOne(request, await projectSnippets.find(request.project, request.standing, request.params.snippet_id)),
  );

  api.post(
    '/projects/:id/snippets',
    { config: { project: 'create_project_snippet' }, schema: { params: ProjectId, body: SnippetBody, response: { 201: ProjectSnippet } } },
    async (request, reply) => {
      const created = await projectSnippets.create(request.project, request.standing, snippetParams(request.body, true));
      return reply.status(201).send(await presentOne(request, created));
    },
  );

  api.put(
    '/projects/:id/snippets/:snippet_id',
    { config: { project: 'read_project_snippet' }, schema: { params: SnippetPath, body: SnippetBody, response: { 200: ProjectSnippet } } },
    async (request) => {
      const params = snippetParams(request.body, false);
      return presentOne(request, await projectSnippets.update(request.project, request.standing, request.params.snippet_id, params));
    },
  );

  // v4 answers a deletion with no content.
  api.delete(
    '/projects/:id/snippets/:snippet_id',
    {
      config: { project: 'read_project_snippet' },
      schema: { params: SnippetPath, querystring: NoParams, response: { 204: Type.Null({ description: 'removed' }) } },
    },
    async (request, reply) => {
      await projectSnippets.delete(request.project, request.standing, request.params.snippet_id);
      return reply.status(204).send(null);
    },
  );

  api.get(
    '/projects/:id/snippets/:snippet_id/raw',
    { config: readSnippets, schema: { params: SnippetPath, querystring: NoParams, response: RawResponse } },
    async (request, reply) => {
      const snippet = await projectSnippets.find(request.project, request.standing, request.params.snippet_id);
      return reply.type('text/plain; charset=utf-8').send(snippet.content);
    },
  );
}
