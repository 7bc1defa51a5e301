import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../services/index';
import { can } from '../services/policy';
import { lineOfCode } from '../services/notes/diff-positions';
import { PAGE, WebError } from './request';
import { projectFor, recordNumber, type ProjectParams } from './project-scope';
import { projectPath } from './paths';
import { viewAsked } from './merge-request-changes-routes';
import { viewQuery } from './pages/merge-requests/line-comments';

export interface MergeRequestDiscussionRouteDeps {
  services: Services;
}

const Text = Type.Optional(Type.String({ maxLength: 1000 }));
/** The Changes tab's view a form came from (`diff_id`, `start_sha`), and which tab to go back to. */
const Back = {
  back: Type.Optional(Type.String({ maxLength: 20 })),
  diff_id: Type.Optional(Type.String({ maxLength: 20 })),
  start_sha: Type.Optional(Type.String({ maxLength: 64 })),
};
const LineCommentBody = Type.Object({
  authenticity_token: Text,
  line_code: Type.Optional(Type.String({ maxLength: 100 })),
  note: Type.Optional(Type.String({ maxLength: 1_000_000 })),
  ...Back,
});
const ResolveBody = Type.Object({ authenticity_token: Text, ...Back });
const ReplyBody = Type.Object({
  authenticity_token: Text,
  note: Type.Optional(Type.String({ maxLength: 1_000_000 })),
  /** GitLab's "Comment & resolve discussion" (or unresolve): the reply's second button. */
  resolve_discussion: Type.Optional(Type.Union([Type.Literal('resolve'), Type.Literal('unresolve')])),
  ...Back,
});
type MergeRequestParams = ProjectParams & { iid: string };
type DiscussionParams = MergeRequestParams & { discussion_id: string };

/**
 * The writes of a merge request's discussions from its pages: a comment on a line (its form posts
 * the line's code, read against the version the Changes tab showed), a reply in a discussion (with
 * "Comment & resolve discussion", the reply then the resolving), and resolving or unresolving one
 * (the whole thread); through the same service as v4's discussions API.
 */
export function mergeRequestDiscussionRoutes(pages: FastifyInstance, { services }: MergeRequestDiscussionRouteDeps): void {
  const base = '/:namespace/:project/merge_requests/:iid';
  const discussions = services.mergeRequestDiscussions;

  const mergeRequestFor = async (request: FastifyRequest<{ Params: MergeRequestParams }>) => {
    if (!request.web.user) throw new WebError(404);
    const { project, standing } = await projectFor(services, request, 'read_merge_request');
    const mergeRequestId = await services.mergeRequests.idByIid(project, recordNumber(request.params.iid));
    return {
      project,
      standing,
      mergeRequestId,
      user: request.web.user,
      path: `${projectPath(project)}/merge_requests/${request.params.iid}`,
    };
  };

  /** The tab a form came from: the Changes tab on the version it showed, or the Discussion tab. */
  const backTo = (path: string, body: Static<typeof ResolveBody>) =>
    body.back === 'diffs' ? `${path}/diffs${viewQuery(viewAsked(body))}` : path;

  pages.post<{ Params: MergeRequestParams; Body: Static<typeof LineCommentBody> }>(
    `${base}/discussions`,
    { config: PAGE, schema: { body: LineCommentBody } },
    async (request, reply) => {
      const { project, standing, mergeRequestId, user, path } = await mergeRequestFor(request);
      if (!can(standing, 'create_note')) throw new WebError(404);
      const code = request.body.line_code ?? '';
      const asked = viewAsked(request.body);
      const changes = `${path}/diffs${viewQuery(asked)}`;
      const shown = await services.mergeRequestReads.view(project, mergeRequestId, asked);
      const found = shown && lineOfCode(shown.diffs, code);
      // A line gone from the version (pushed over since the page was drawn): back to the changes.
      if (!shown || !found) return reply.redirect(changes, 303);
      if (!request.body.note?.trim()) return reply.redirect(`${changes}${changes.includes('?') ? '&' : '?'}line_code=${code}#form`, 303);
      const created = await discussions.create(project, standing, user, mergeRequestId, {
        body: request.body.note,
        position: {
          ...shown.refs,
          old_path: found.file.oldPath,
          new_path: found.file.newPath,
          old_line: found.line.oldLine,
          new_line: found.line.newLine,
        },
      });
      return reply.redirect(`${changes}#note_${created.notes[0].id}`, 303);
    },
  );

  pages.post<{ Params: DiscussionParams; Body: Static<typeof ReplyBody> }>(
    `${base}/discussions/:discussion_id/notes`,
    { config: PAGE, schema: { body: ReplyBody } },
    async (request, reply) => {
      const { project, standing, mergeRequestId, user, path } = await mergeRequestFor(request);
      if (!can(standing, 'create_note')) throw new WebError(404);
      const back = backTo(path, request.body);
      const { discussion_id: id } = request.params;
      if (!request.body.note?.trim()) return reply.redirect(`${back}#discussion_${id}`, 303);
      const settle = request.body.resolve_discussion;
      const resolved = settle === undefined ? undefined : settle === 'resolve';
      const note = await discussions.reply(project, standing, user, mergeRequestId, id, request.body.note, resolved);
      return reply.redirect(`${back}#note_${note.id}`, 303);
    },
  );

  for (const [action, resolved] of [
    ['resolve', true],
    ['unresolve', false],
  ] as const) {
    pages.post<{ Params: DiscussionParams; Body: Static<typeof ResolveBody> }>(
      `${base}/discussions/:discussion_id/${action}`,
      { config: PAGE, schema: { body: ResolveBody } },
      async (request, reply) => {
        const { project, standing, mergeRequestId, user, path } = await mergeRequestFor(request);
        const { discussion_id: id } = request.params;
        const back = backTo(path, request.body);
        await discussions.resolve(project, standing, user, mergeRequestId, id, resolved);
        return reply.redirect(`${back}#discussion_${id}`, 303);
      },
    );
  }
}
