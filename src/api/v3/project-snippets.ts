import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Api, RouteDeps } from '../shared/types';
import { ProjectSnippet, SnippetRecord, presentProjectSnippet, presentSnippetRecord } from './entities/snippet';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { projectUrls } from '../../lib/urls';
import { NameString, RecordId, TextString } from '../shared/params';
import type { SnippetRow } from '../../services/snippets/project-snippets';

const ProjectId = Type.Object({ id: Type.String() });
// 8.12 found the snippet with `find(params[:snippet_id])`: a path that is not an id names none (404).
const SnippetPath = Type.Object({ id: Type.String(), snippet_id: RecordId });
const PageQuery = Type.Object({ page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) });
const NoParams = Type.Object({});
// Every field is optional to the schema: the service asks for the required ones in 8.12's order,
// blank counting as missing (`required_attributes!`). Lengths are GitLab's columns (`LIMITS`).
const SnippetBody = Type.Object({
  title: Type.Optional(NameString()),
  file_name: Type.Optional(NameString()),
  code: Type.Optional(TextString()),
  // Text first, so that coercion keeps a blank one blank (not given) instead of making it 0.
  visibility_level: Type.Optional(Type.Union([Type.String(), Type.Integer()])),
});
const RawResponse = {
  200: { description: "the snippet's content", content: { 'text/plain': { schema: Type.String() } } },
};

// Every route reads snippets first (GitLab's `read_project_snippet`, off with the snippets feature);
// which snippets a caller sees, and who changes one, the service decides. 8.12's API asked the
// feature only on creation, so a project that turned snippets off still served them: not here (403).
const readSnippets = { project: 'read_project_snippet' } as const;

/** A project's snippets: readers see them by their visibility, reporters write them, their authors (and admins) change and remove them. */
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
      schema: { params: ProjectId, querystring: PageQuery, response: { 200: Type.Array(ProjectSnippet) } },
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
    {
      config: readSnippets,
      schema: { params: SnippetPath, querystring: NoParams, response: { 200: ProjectSnippet } },
    },
    async (request) => presentOne(request, await projectSnippets.find(request.project, request.standing, request.params.snippet_id)),
  );

  api.post(
    '/projects/:id/snippets',
    {
      config: { project: 'create_project_snippet' },
      schema: { params: ProjectId, body: SnippetBody, response: { 201: ProjectSnippet } },
    },
    async (request, reply) => {
      const created = await projectSnippets.create(request.project, request.standing, request.body);
      return reply.status(201).send(await presentOne(request, created));
    },
  );

  api.put(
    '/projects/:id/snippets/:snippet_id',
    {
      config: readSnippets,
      schema: { params: SnippetPath, body: SnippetBody, response: { 200: ProjectSnippet } },
    },
    async (request) =>
      presentOne(request, await projectSnippets.update(request.project, request.standing, request.params.snippet_id, request.body)),
  );

  // 8.12 answered the removed record itself, every column of it.
  api.delete(
    '/projects/:id/snippets/:snippet_id',
    {
      config: readSnippets,
      schema: { params: SnippetPath, querystring: NoParams, response: { 200: SnippetRecord } },
    },
    async (request) => presentSnippetRecord(await projectSnippets.delete(request.project, request.standing, request.params.snippet_id)),
  );

  api.get(
    '/projects/:id/snippets/:snippet_id/raw',
    {
      config: readSnippets,
      schema: { params: SnippetPath, querystring: NoParams, response: RawResponse },
    },
    async (request, reply) => {
      const snippet = await projectSnippets.find(request.project, request.standing, request.params.snippet_id);
      return reply.type('text/plain; charset=utf-8').send(snippet.content);
    },
  );
}
