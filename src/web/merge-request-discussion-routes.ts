import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../services/index';
import { can } from '../services/policy';
import { lineOfCode } from '../services/notes/diff-positions';
import { PAGE, WebError } from './request';
import { projectFor, recordNumber, type ProjectParams } from './project-scope';
import { projectPath } from './paths';

export interface MergeRequestDiscussionRouteDeps {
  services: Services;
}

const Text = Type.Optional(Type.String({ maxLength: 1000 }));
const LineCommentBody = Type.Object({
  authenticity_token: Text,
  line_code: Type.Optional(Type.String({ maxLength: 100 })),
  note: Type.Optional(Type.String({ maxLength: 1_000_000 })),
});
const ResolveBody = Type.Object({ authenticity_token: Text, back: Type.Optional(Type.String({ maxLength: 20 })) });
type MergeRequestParams = ProjectParams & { iid: string };
type DiscussionParams = MergeRequestParams & { discussion_id: string };

/**
 * The Changes tab's writes: a comment on a line (its form posts the line's code, read against the
 * latest version's diff), and resolving or unresolving a discussion; through the same service as
 * v4's discussions API.
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

  pages.post<{ Params: MergeRequestParams; Body: Static<typeof LineCommentBody> }>(
    `${base}/discussions`,
    { config: PAGE, schema: { body: LineCommentBody } },
    async (request, reply) => {
      const { project, standing, mergeRequestId, user, path } = await mergeRequestFor(request);
      if (!can(standing, 'create_note')) throw new WebError(404);
      const code = request.body.line_code ?? '';
      const { diffs } = await services.mergeRequestReads.changes(project, user, mergeRequestId);
      const found = lineOfCode(diffs, code);
      // A line gone from the latest version (pushed over since the page was drawn): back to the changes.
      if (!found) return reply.redirect(`${path}/diffs`, 303);
      if (!request.body.note?.trim()) return reply.redirect(`${path}/diffs?line_code=${code}#form`, 303);
      const created = await discussions.create(project, standing, user, mergeRequestId, {
        body: request.body.note,
        position: {
          old_path: found.file.oldPath,
          new_path: found.file.newPath,
          old_line: found.line.oldLine,
          new_line: found.line.newLine,
        },
      });
      return reply.redirect(`${path}/diffs#note_${created.notes[0].id}`, 303);
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
        await discussions.resolve(project, standing, user, mergeRequestId, id, resolved);
        const back = request.body.back === 'diffs' ? `${path}/diffs` : path;
        return reply.redirect(`${back}#discussion_${id}`, 303);
      },
    );
  }
}
