import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services/index';
import { can } from '../services/policy';
import { positionLineCode } from '../services/notes/diff-positions';
import { cookieOptions, PAGE, pageContext, sendPage, WebError, type CookieOptions } from './request';
import { projectFor, recordNumber, type ProjectParams } from './project-scope';
import { projectPath } from './paths';
import { type NoteRenderings, renderNotes } from './rendered-notes';
import { shownLineDiscussions } from './line-comments';
import { ownAward } from './own-award';
import type { DiffView } from './pages/diff';
import { looksGoodForm } from './pages/merge-requests/review';
import { mergeRequestChangesPage } from './pages/merge-requests/show';
import { askedOf, versionsBar } from './pages/merge-requests/versions';
import { lineCommentForm, lineDiscussion, viewQuery, type ViewAt } from './pages/merge-requests/line-comments';
import { html } from './html';

export interface MergeRequestChangesRouteDeps {
  services: Services;
  /** Plain notes' renderings, kept by the web door. */
  renderings: NoteRenderings;
  cookies: CookieOptions;
}

const ChangesQuery = Type.Object({
  line_code: Type.Optional(Type.String({ maxLength: 100 })),
  diff_id: Type.Optional(Type.String({ maxLength: 20 })),
  start_sha: Type.Optional(Type.String({ maxLength: 64 })),
  view: Type.Optional(Type.String({ maxLength: 20 })),
});
type MergeRequestParams = ProjectParams & { iid: string };

/** GitLab's cookie for the diff view, kept a year (`cookies.permanent[:diff_view]`). */
const VIEW_COOKIE = 'diff_view';
const VIEW_COOKIE_SECONDS = 365 * 24 * 3600;
const isView = (value: string | undefined): value is DiffView => value === 'inline' || value === 'parallel';

/**
 * The view a query names: `diff_id` a version's id, `start_sha` an older version's head; blank is
 * not given, anything else is no version of this merge request (404).
 */
export function viewAsked(query: { diff_id?: string; start_sha?: string }): ViewAt {
  const diffId = query.diff_id || undefined;
  const startSha = query.start_sha || undefined;
  if (diffId !== undefined && !/^\d{1,9}$/.test(diffId)) throw new WebError(404);
  if (startSha !== undefined && !/^[0-9a-f]{40,64}$/.test(startSha)) throw new WebError(404);
  return { diffId: diffId === undefined ? undefined : Number(diffId), startSha };
}

/**
 * `…/merge_requests/:iid/diffs`, the Changes tab as GitLab 9–11 drew it: a version's diff (the
 * latest by default, `?diff_id=`) against its base or an older version (`&start_sha=`), the list of
 * versions, inline or side by side (`?view=`, remembered in a cookie), "looks good", and the line
 * comments made on the version shown, with their replies and the form under the line asked for.
 * Only the line comments are read, not the merge request's other notes.
 */
export function mergeRequestChangesRoutes(pages: FastifyInstance, { services, cookies, renderings }: MergeRequestChangesRouteDeps): void {
  pages.get<{ Params: MergeRequestParams; Querystring: Static<typeof ChangesQuery> }>(
    '/:namespace/:project/merge_requests/:iid/diffs',
    { config: PAGE, schema: { querystring: ChangesQuery } },
    async (request, reply) => {
      const { project, standing } = await projectFor(services, request, 'read_merge_request');
      const mergeRequestId = await services.mergeRequests.idByIid(project, recordNumber(request.params.iid));
      const asked = viewAsked(request.query);
      const user = request.web.user;
      const reads = services.mergeRequestReads;
      const [details, shown, discussions, own] = await Promise.all([
        services.mergeRequests.find(project, standing, mergeRequestId),
        reads.view(project, mergeRequestId, asked),
        services.mergeRequestDiscussions.lineDiscussions(project, standing, mergeRequestId),
        user ? ownAward(services, project, standing, user.id, mergeRequestId, 'thumbsup') : undefined,
      ]);
      if (isView(request.query.view)) reply.setCookie(VIEW_COOKIE, request.query.view, cookieOptions(cookies, VIEW_COOKIE_SECONDS));
      const remembered = request.cookies[VIEW_COOKIE];
      const view: DiffView = isView(request.query.view) ? request.query.view : isView(remembered) ? remembered : 'inline';
      const { mergeRequest, upvotes } = details;
      const page = pageContext(request);
      const path = `${projectPath(project)}/merge_requests/${mergeRequest.iid}`;
      const looksGood = looksGoodForm(page, `${path}/toggle_award_emoji`, {
        upvotes,
        mayAward: user !== null && user.id !== mergeRequest.author_id,
        awarded: own !== undefined,
      });
      const at = shown ? askedOf(shown) : {};
      const rendered = await renderNotes(
        services,
        renderings,
        project,
        standing,
        discussions.flatMap((discussion) => discussion.notes),
      );
      const lines = await shownLineDiscussions(services, project, standing, mergeRequest, discussions, rendered.notes, shown);
      const under = new Map<string, string>();
      for (const discussion of lines.discussions) {
        const code = lines.lineCodes.get(discussion.id);
        if (code) under.set(code, (under.get(code) ?? '') + lineDiscussion(page, path, discussion, at).value);
      }
      const mayComment = user !== null && can(standing, 'create_note') && shown !== undefined;
      const formAt = mayComment ? request.query.line_code : undefined;
      const query = viewQuery(at);
      const comments = {
        code: (file: { newPath: string }, oldLine: number | null, newLine: number | null) =>
          positionLineCode(file.newPath, oldLine, newLine),
        href: (code: string) => (mayComment ? `${path}/diffs${query || '?'}${query ? '&' : ''}line_code=${code}#form` : undefined),
        below: (code: string) => {
          const form = code === formAt ? lineCommentForm(page, path, code, at).value : '';
          return (under.get(code) ?? '') + form || undefined;
        },
      };
      const heading = {
        details,
        projectPath: projectPath(project),
        pipeline: (await reads.headPipelines([details])).get(mergeRequest.id),
      };
      const versions = shown ? versionsBar({ base: path, ...shown, view }) : html``;
      const body = mergeRequestChangesPage(heading, shown?.diffs ?? [], looksGood, { versions, view, comments });
      return sendPage(request, reply, `Changes · ${mergeRequest.title} (!${mergeRequest.iid}) · ${project.name}`, body);
    },
  );
}
