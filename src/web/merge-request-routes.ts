import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services/index';
import type { NoteRenderings } from './rendered-notes';
import type { MergeRequestDetails, MergeRequestFilters } from '../services/merge-requests/types';
import type { Project } from '../services/projects/types';
import { can, mayUpdateMergeRequest, type ProjectStanding } from '../services/policy';
import { ApiError } from '../errors';
import { PAGE, pageContext, sendPage, WebError } from './request';
import { projectFor, recordNumber, type ProjectParams } from './project-scope';
import { projectPath } from './paths';
import { fieldErrors, type FieldErrors } from './form-errors';
import { formId, formList, issuableChoices } from './issuable-choices';
import { pageNumber, shownNotes, signInFirst } from './issue-routes';
import { askedQuery, issuableRoutes, listFilters, ListQuery } from './issuable-routes';
import { mergeRequestListPage } from './pages/merge-requests/list';
import { mergeRequestForm, type MergeRequestForm } from './pages/merge-requests/form';
import { mergeRequestCommitsPage, mergeRequestPage } from './pages/merge-requests/show';
import type { MergeRequestHeading } from './pages/merge-requests/header';
import { pipelineJobs } from './pages/merge-requests/review';
import { latestTries } from './pipeline-routes';
import { discussionTabNotes } from './line-comments';
import { ownAward } from './own-award';

export interface MergeRequestRouteDeps {
  services: Services;
  /** Plain notes' renderings, kept by the web door. */
  renderings: NoteRenderings;
}

const PER_PAGE = 20;

const Text = Type.Optional(Type.String({ maxLength: 1000 }));
const Branch = Type.Optional(Type.String({ maxLength: 255 }));
// GitLab 8.12's links to the form name the branch as `merge_request[source_branch]`.
const NewQuery = Type.Object({
  source_branch: Branch,
  target_branch: Branch,
  'merge_request[source_branch]': Branch,
  'merge_request[target_branch]': Branch,
});
const MergeRequestBody = Type.Object({
  authenticity_token: Text,
  source_branch: Branch,
  target_branch: Branch,
  title: Type.Optional(Type.String({ maxLength: 255 })),
  description: Type.Optional(Type.String({ maxLength: 1_000_000 })),
  assignee_id: Text,
  milestone_id: Text,
  labels: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Array(Type.String({ maxLength: 255 }), { maxItems: 100 })])),
});
const TokenBody = Type.Object({ authenticity_token: Text });
const AwardBody = Type.Object({ authenticity_token: Text, name: Type.Optional(Type.String({ maxLength: 255 })) });
const MergeBody = Type.Object({
  authenticity_token: Text,
  sha: Type.Optional(Type.String({ maxLength: 64 })),
  should_remove_source_branch: Text,
  merge_when_pipeline_succeeds: Text,
});
type MergeRequestParams = ProjectParams & { iid: string };
type FormValues = MergeRequestForm['values'] & { sourceBranch?: string; targetBranch?: string };

/** The merge refusals a person can act on (not open, work in progress, conflicts, a head that moved), shown on the page. */
const MERGE_REFUSALS: Record<number, string> = {
  405: 'This merge request cannot be merged now (it is not open, is a work in progress, or its branch is gone).',
  406: 'This merge request has conflicts and cannot be merged.',
  409: 'The source branch changed since the page was shown: review the new changes and merge again.',
};

/** A pipeline's jobs shown on its merge request: more than this many is past any real pipeline. */
const JOBS_LIMIT = 1000;

/**
 * `…/merge_requests`, `…/new`, and `…/merge_requests/:iid` with its Commits tab, its comments,
 * closing and reopening, merging and the automatic merge: the pages of GitLab 8.12, every write
 * through the same services (and slash commands) as the API. The Changes tab is
 * `merge-request-changes-routes.ts`.
 */
export function mergeRequestRoutes(pages: FastifyInstance, { services, renderings }: MergeRequestRouteDeps): void {
  const base = '/:namespace/:project/merge_requests';
  const reads = services.mergeRequestReads;
  const merging = services.mergeRequestMerging;

  pages.get<{ Params: ProjectParams; Querystring: Static<typeof ListQuery> }>(
    base,
    { config: PAGE, schema: { querystring: ListQuery } },
    async (request, reply) => {
      const { project, standing } = await projectFor(services, request, 'read_merge_request');
      const { query } = request;
      const state = query.state === 'merged' || query.state === 'closed' || query.state === 'all' ? query.state : 'opened';
      const page = pageNumber(query.page);
      const filters: MergeRequestFilters = { state, ...listFilters(query) };
      const { mergeRequests, total } = await services.mergeRequests.list(project, standing, filters, {
        offset: (page - 1) * PER_PAGE,
        limit: PER_PAGE,
      });
      const body = mergeRequestListPage({
        projectPath: projectPath(project),
        mergeRequests,
        pipelines: await reads.headPipelines(mergeRequests),
        total,
        page,
        perPage: PER_PAGE,
        state,
        query: askedQuery(query),
        mayCreate: can(standing, 'create_merge_request'),
      });
      return sendPage(request, reply, `Merge Requests · ${project.name}`, body);
    },
  );

  const showForm = async (
    request: FastifyRequest<{ Params: ProjectParams }>,
    reply: FastifyReply,
    project: Project,
    standing: ProjectStanding,
    values: FormValues,
    errors?: FieldErrors,
  ) => {
    const [choices, branches, defaultRef] = await Promise.all([
      issuableChoices(services, project, standing),
      services.branches.list(project),
      services.repositoryReads.defaultRef(project),
    ]);
    const form: MergeRequestForm = {
      action: `${projectPath(project)}/merge_requests`,
      heading: 'New merge request',
      submit: 'Submit merge request',
      ...choices,
      branches: branches.map((branch) => branch.name),
      sourceBranch: values.sourceBranch,
      targetBranch: values.targetBranch ?? defaultRef,
      values,
      errors,
    };
    return sendPage(
      request,
      reply,
      `New merge request · ${project.name}`,
      mergeRequestForm(pageContext(request), form),
      errors ? 400 : 200,
    );
  };

  pages.get<{ Params: ProjectParams; Querystring: Static<typeof NewQuery> }>(
    `${base}/new`,
    { config: PAGE, schema: { querystring: NewQuery } },
    async (request, reply) => {
      if (!request.web.user) return signInFirst(request, reply);
      const { project, standing } = await projectFor(services, request, 'create_merge_request');
      const { query } = request;
      return showForm(request, reply, project, standing, {
        sourceBranch: query['merge_request[source_branch]'] || query.source_branch || undefined,
        targetBranch: query['merge_request[target_branch]'] || query.target_branch || undefined,
      });
    },
  );

  pages.post<{ Params: ProjectParams; Body: Static<typeof MergeRequestBody> }>(
    base,
    { config: PAGE, schema: { body: MergeRequestBody } },
    async (request, reply) => {
      const user = request.web.user;
      if (!user) throw new WebError(404);
      const { project, standing } = await projectFor(services, request, 'create_merge_request');
      const { body } = request;
      const values: FormValues = {
        title: body.title,
        description: body.description,
        assigneeId: body.assignee_id,
        milestoneId: body.milestone_id,
        labels: formList(body.labels),
        sourceBranch: body.source_branch,
        targetBranch: body.target_branch,
      };
      const blank: FieldErrors = {};
      if (!body.source_branch) blank.source_branch = ["can't be blank"];
      if (!body.target_branch) blank.target_branch = ["can't be blank"];
      if (!body.title?.trim()) blank.title = ["can't be blank"];
      if (Object.keys(blank).length) return showForm(request, reply, project, standing, values, blank);
      try {
        const created = await services.slashCommands.createMergeRequest(project, user, {
          title: body.title,
          description: body.description || undefined,
          sourceBranch: body.source_branch,
          targetBranch: body.target_branch,
          assigneeId: formId(body.assignee_id) ?? undefined,
          milestoneId: formId(body.milestone_id) ?? undefined,
          labels: values.labels?.length ? values.labels : undefined,
        });
        return reply.redirect(`${projectPath(project)}/merge_requests/${created.mergeRequest.iid}`, 303);
      } catch (error) {
        const errors = fieldErrors(error);
        if (!errors) throw error;
        return showForm(request, reply, project, standing, values, errors);
      }
    },
  );

  /** The merge request of the path, or the page's 404. */
  const mergeRequestFor = async (request: FastifyRequest<{ Params: MergeRequestParams }>) => {
    const { project, standing } = await projectFor(services, request, 'read_merge_request');
    const mergeRequestId = await services.mergeRequests.idByIid(project, recordNumber(request.params.iid));
    return { project, standing, mergeRequestId };
  };

  const heading = async (project: Project, details: MergeRequestDetails): Promise<MergeRequestHeading> => ({
    details,
    projectPath: projectPath(project),
    pipeline: (await reads.headPipelines([details])).get(details.mergeRequest.id),
  });

  const pathOf = (project: Project, iid: string) => `${projectPath(project)}/merge_requests/${iid}`;

  const showDiscussion = async (request: FastifyRequest<{ Params: MergeRequestParams }>, reply: FastifyReply, refusal?: ApiError) => {
    const { project, standing, mergeRequestId } = await mergeRequestFor(request);
    const details = await services.mergeRequests.find(project, standing, mergeRequestId);
    const { mergeRequest } = details;
    const user = request.web.user;
    const [top, shown, mayMerge] = await Promise.all([
      heading(project, details),
      shownNotes(services, renderings, project, standing, 'merge_requests', mergeRequestId, mergeRequest.description),
      user ? merging.mayMerge(project, standing, mergeRequest.target_branch) : false,
    ]);
    // The head pipeline's jobs, when it ran here (a fork's runs in the fork) and its builds are the reader's to see.
    const pipeline = top.pipeline;
    const builds =
      pipeline && pipeline.project_id === project.id && can(standing, 'read_build')
        ? (await services.builds.listForPipeline(project, pipeline.id, undefined, { offset: 0, limit: JOBS_LIMIT })).builds
        : [];
    // A line comment's thread is drawn as one: where it sits, its resolve button, its replies and their form.
    const notes = await discussionTabNotes(
      services,
      pageContext(request),
      pathOf(project, request.params.iid),
      project,
      standing,
      mergeRequest,
      shown.notes,
    );
    const view = {
      ...top,
      ...shown,
      notes,
      jobs: pipelineJobs(project, latestTries(builds)),
      mayUpdate: mayUpdateMergeRequest(standing, mergeRequest),
      merge: {
        mayMerge,
        mayCancel: mayMerge || (user !== null && mergeRequest.author_id === user.id),
        onlyIfGreen: project.only_allow_merge_if_build_succeeds === 1,
        refusal: refusal && MERGE_REFUSALS[refusal.status],
      },
    };
    return sendPage(
      request,
      reply,
      `${mergeRequest.title} (!${mergeRequest.iid}) · ${project.name}`,
      mergeRequestPage(pageContext(request), view),
      refusal?.status ?? 200,
    );
  };

  pages.get<{ Params: MergeRequestParams }>(`${base}/:iid`, { config: PAGE }, (request, reply) => showDiscussion(request, reply));

  pages.get<{ Params: MergeRequestParams }>(`${base}/:iid/commits`, { config: PAGE }, async (request, reply) => {
    const { project, standing, mergeRequestId } = await mergeRequestFor(request);
    const [details, commits] = await Promise.all([
      services.mergeRequests.find(project, standing, mergeRequestId),
      reads.commits(project, mergeRequestId),
    ]);
    const { title, iid } = details.mergeRequest;
    const body = mergeRequestCommitsPage(project, await heading(project, details), commits);
    return sendPage(request, reply, `Commits · ${title} (!${iid}) · ${project.name}`, body);
  });

  // GitLab 8.12's award button: gives the emoji, or takes the caller's own back; through the same service as the API's award emoji routes.
  pages.post<{ Params: MergeRequestParams; Body: Static<typeof AwardBody> }>(
    `${base}/:iid/toggle_award_emoji`,
    { config: PAGE, schema: { body: AwardBody } },
    async (request, reply) => {
      const user = request.web.user;
      if (!user) throw new WebError(404);
      const { project, standing, mergeRequestId } = await mergeRequestFor(request);
      const name = request.body.name?.trim() || 'thumbsup';
      const target = { kind: 'merge_request', id: mergeRequestId } as const;
      const own = await ownAward(services, project, standing, user.id, mergeRequestId, name);
      if (own) await services.awardEmoji.remove(project, standing, user, target, own.id);
      else await services.awardEmoji.create(project, standing, user, target, name);
      return reply.redirect(`${pathOf(project, request.params.iid)}/diffs`, 303);
    },
  );

  // Later GitLab names the Changes tab `…/changes`: it leads to 8.12's `…/diffs`.
  pages.get<{ Params: MergeRequestParams }>(`${base}/:iid/changes`, { config: PAGE }, async (request, reply) => {
    const { project } = await mergeRequestFor(request);
    return reply.redirect(`${pathOf(project, request.params.iid)}/diffs`, 301);
  });

  issuableRoutes(pages, services, {
    kind: 'merge_requests',
    find: async (request) => {
      const { project, standing, mergeRequestId } = await mergeRequestFor(request);
      return { project, standing, id: mergeRequestId };
    },
    update: (project, standing, user, id, changes) => services.slashCommands.updateMergeRequest(project, standing, user, id, changes),
  });

  // The merge box's form: merge now, or once the head pipeline succeeds; a refusal is shown on the page.
  pages.post<{ Params: MergeRequestParams; Body: Static<typeof MergeBody> }>(
    `${base}/:iid/merge`,
    { config: PAGE, schema: { body: MergeBody } },
    async (request, reply) => {
      const user = request.web.user;
      if (!user) throw new WebError(404);
      const { project, standing, mergeRequestId } = await mergeRequestFor(request);
      const { body } = request;
      try {
        await merging.accept(project, standing, user, mergeRequestId, {
          shouldRemoveSourceBranch: body.should_remove_source_branch === '1',
          mergeWhenPipelineSucceeds: body.merge_when_pipeline_succeeds === '1',
          sha: body.sha || undefined,
        });
      } catch (error) {
        if (error instanceof ApiError && MERGE_REFUSALS[error.status]) return showDiscussion(request, reply, error);
        throw error;
      }
      return reply.redirect(pathOf(project, request.params.iid), 303);
    },
  );

  // GitLab 8.12's path for cancelling the automatic merge.
  pages.post<{ Params: MergeRequestParams; Body: Static<typeof TokenBody> }>(
    `${base}/:iid/cancel_merge_when_build_succeeds`,
    { config: PAGE, schema: { body: TokenBody } },
    async (request, reply) => {
      const user = request.web.user;
      if (!user) throw new WebError(404);
      const { project, standing, mergeRequestId } = await mergeRequestFor(request);
      await merging.cancelAutomaticMerge(project, standing, user, mergeRequestId);
      return reply.redirect(pathOf(project, request.params.iid), 303);
    },
  );
}
