import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services/index';
import type { NoteRenderings } from './rendered-notes';
import type { Project } from '../services/projects/types';
import { can, type ProjectStanding } from '../services/policy';
import { PAGE, pageContext, sendPage, WebError } from './request';
import { projectFor, recordNumber, type ProjectParams } from './project-scope';
import { projectPath } from './paths';
import { fieldErrors } from './form-errors';
import { BLOB_MAX_BYTES, BLOB_MAX_LINES, codeTable } from './blob-render';
import { highlightLines, languageOf } from './highlight';
import { rawHeaders } from './raw';
import { pageNumber, shownNotes, signInFirst } from './issue-routes';
import { snippetListPage } from './pages/snippets/list';
import { snippetPage } from './pages/snippets/show';
import { snippetForm, type SnippetForm } from './pages/snippets/form';

export interface SnippetRouteDeps {
  services: Services;
  /** Plain notes' renderings, kept by the web door. */
  renderings: NoteRenderings;
}

const PER_PAGE = 20;
const Text = Type.Optional(Type.String({ maxLength: 1000 }));
const ListQuery = Type.Object({ page: Text });
const SnippetBody = Type.Object({
  authenticity_token: Text,
  title: Type.Optional(Type.String({ maxLength: 255 })),
  file_name: Type.Optional(Type.String({ maxLength: 255 })),
  content: Type.Optional(Type.String({ maxLength: 1_000_000 })),
  visibility_level: Text,
});
const NoteBody = Type.Object({ authenticity_token: Text, note: Type.Optional(Type.String({ maxLength: 1_000_000 })) });
type SnippetParams = ProjectParams & { id: string };

/** The snippet's text highlighted as a blob is, line by line; undefined past the blob viewer's limits. */
function highlightedFile(fileName: string, content: string) {
  if (Buffer.byteLength(content) > BLOB_MAX_BYTES) return undefined;
  const lines = highlightLines(content, languageOf(fileName));
  return lines.length > BLOB_MAX_LINES ? undefined : codeTable(lines);
}

/**
 * `…/snippets`, `…/snippets/new`, `…/snippets/:id` with its comments, and `…/snippets/:id/raw`. A
 * snippet is found through the same visibility rule as the API's (`readableSnippetsIn`): one the
 * caller may not read is the page's 404, like a missing one.
 */
export function snippetRoutes(pages: FastifyInstance, { services, renderings }: SnippetRouteDeps): void {
  const base = '/:namespace/:project/snippets';

  pages.get<{ Params: ProjectParams; Querystring: Static<typeof ListQuery> }>(
    base,
    { config: PAGE, schema: { querystring: ListQuery } },
    async (request, reply) => {
      const { project, standing } = await projectFor(services, request, 'read_project_snippet');
      const page = pageNumber(request.query.page);
      const { snippets, total } = await services.projectSnippets.list(project, standing, {
        offset: (page - 1) * PER_PAGE,
        limit: PER_PAGE,
      });
      const authorIds = [...new Set(snippets.flatMap((snippet) => (snippet.author_id === null ? [] : [snippet.author_id])))];
      const authors = await services.users.findMany(authorIds);
      const body = snippetListPage({
        projectPath: projectPath(project),
        snippets,
        authors,
        total,
        page,
        perPage: PER_PAGE,
        mayCreate: can(standing, 'create_project_snippet'),
      });
      return sendPage(request, reply, `Snippets · ${project.name}`, body);
    },
  );

  const showForm = (
    request: FastifyRequest,
    reply: FastifyReply,
    project: Project,
    values: SnippetForm['values'] = {},
    errors?: SnippetForm['errors'],
  ) => {
    const form = { action: `${projectPath(project)}/snippets`, values, errors };
    return sendPage(request, reply, `New snippet · ${project.name}`, snippetForm(pageContext(request), form), errors ? 400 : 200);
  };

  pages.get<{ Params: ProjectParams }>(`${base}/new`, { config: PAGE }, async (request, reply) => {
    if (!request.web.user) return signInFirst(request, reply);
    const { project } = await projectFor(services, request, 'create_project_snippet');
    return showForm(request, reply, project);
  });

  pages.post<{ Params: ProjectParams; Body: Static<typeof SnippetBody> }>(
    base,
    { config: PAGE, schema: { body: SnippetBody } },
    async (request, reply) => {
      if (!request.web.user) throw new WebError(404);
      const { project, standing } = await projectFor(services, request, 'create_project_snippet');
      const { title, file_name, content, visibility_level } = request.body;
      const values = { title, fileName: file_name, content, visibility: visibility_level };
      try {
        const created = await services.projectSnippets.create(project, standing, {
          title,
          file_name,
          code: content,
          visibility_level: visibility_level ?? '0',
        });
        return reply.redirect(`${projectPath(project)}/snippets/${created.id}`, 303);
      } catch (error) {
        const errors = fieldErrors(error);
        if (!errors) throw error;
        return showForm(request, reply, project, values, errors);
      }
    },
  );

  /** The snippet of the path, or the page's 404 (also for one whose visibility keeps it from the caller). */
  const snippetFor = async (request: FastifyRequest<{ Params: SnippetParams }>) => {
    const { project, standing } = await projectFor(services, request, 'read_project_snippet');
    const snippet = await services.projectSnippets.find(project, standing, recordNumber(request.params.id));
    return { project, standing, snippet };
  };

  pages.get<{ Params: SnippetParams }>(`${base}/:id`, { config: PAGE }, async (request, reply) => {
    const { project, standing, snippet } = await snippetFor(request);
    const [shown, authors] = await Promise.all([
      shownNotes(services, renderings, project, standing, 'snippets', snippet.id, null),
      services.users.findMany(snippet.author_id === null ? [] : [snippet.author_id]),
    ]);
    const view = {
      snippet,
      author: snippet.author_id === null ? undefined : authors.get(snippet.author_id),
      projectPath: projectPath(project),
      file: highlightedFile(snippet.file_name, snippet.content),
      notes: shown.notes,
      mayComment: mayComment(standing),
    };
    return sendPage(request, reply, `${snippet.title} · Snippets · ${project.name}`, snippetPage(pageContext(request), view));
  });

  pages.get<{ Params: SnippetParams }>(`${base}/:id/raw`, { config: PAGE }, async (request, reply) => {
    const { snippet } = await snippetFor(request);
    const body = Buffer.from(snippet.content, 'utf8');
    // Always text, whatever the file's name says: a snippet named `x.svg` or `x.html` is not run from this origin.
    const headers = rawHeaders('', { size: body.length, contentType: 'text/plain; charset=utf-8', body });
    return reply.headers(headers).send(body);
  });

  pages.post<{ Params: SnippetParams; Body: Static<typeof NoteBody> }>(
    `${base}/:id/notes`,
    { config: PAGE, schema: { body: NoteBody } },
    async (request, reply) => {
      const user = request.web.user;
      if (!user) throw new WebError(404);
      const { project, standing, snippet } = await snippetFor(request);
      const path = `${projectPath(project)}/snippets/${snippet.id}`;
      if (!mayComment(standing)) throw new WebError(404);
      if (!request.body.note?.trim()) return reply.redirect(path, 303);
      const created = await services.notes.create(project, standing, user, 'snippets', snippet.id, { body: request.body.note });
      return reply.redirect(created.note ? `${path}#note_${created.note.id}` : path, 303);
    },
  );
}

const mayComment = (standing: ProjectStanding) => can(standing, 'create_note');
