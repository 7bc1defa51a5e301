import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services/index';
import type { IssueFilters } from '../services/issues/types';
import type { NoteableKind } from '../services/notes/noteables';
import type { Project } from '../services/projects/types';
import type { ProjectStanding } from '../services/policy';
import { mayUpdateIssue } from '../services/policy-reads';
import { PAGE, pageContext, sendPage, WebError } from './request';
import { projectFor, recordNumber, type ProjectParams } from './project-scope';
import { projectPath } from './paths';
import type { renderMarkdown } from './markdown';
import { type NoteRenderings, renderNotes } from './rendered-notes';
import { fieldErrors } from './form-errors';
import { formId, formList, issuableChoices } from './issuable-choices';
import { askedQuery, filterNumber, issuableRoutes, listFilters, ListQuery, type IssuableParams } from './issuable-routes';
import { issueListPage } from './pages/issues/list';
import { issuableForm } from './pages/issues/form';
import { issuePage } from './pages/issues/show';
import type { ShownNote } from './pages/issuable-parts';

export interface IssueRouteDeps {
  services: Services;
  /** Plain notes' renderings, kept by the web door. */
  renderings: NoteRenderings;
}

const PER_PAGE = 20;
/** The notes a page shows at most, oldest first. */
const NOTES_SHOWN = 500;

const Text = Type.Optional(Type.String({ maxLength: 1000 }));
const IssueBody = Type.Object({
  authenticity_token: Text,
  title: Type.Optional(Type.String({ maxLength: 255 })),
  description: Type.Optional(Type.String({ maxLength: 1_000_000 })),
  assignee_id: Text,
  milestone_id: Text,
  labels: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Array(Type.String({ maxLength: 255 }), { maxItems: 100 })])),
});

/** The page number asked (1 for anything else). */
export const pageNumber = (value: string | undefined) => Math.min(filterNumber(value) ?? 1, 10_000);

/** Writes need a signed-in user: anonymous visitors go to the sign-in form and come back. */
export function signInFirst(request: FastifyRequest, reply: FastifyReply) {
  return reply.redirect(`/users/sign_in?redirect_to=${encodeURIComponent(request.url)}`, 303);
}

/** Comments and system notes of an issue or merge request, their authors, and each comment rendered with the page's references. */
export async function shownNotes(
  services: Services,
  renderings: NoteRenderings,
  project: Project,
  standing: ProjectStanding,
  kind: NoteableKind,
  noteableId: number,
  description: string | null,
): Promise<{ notes: ShownNote[]; description: ReturnType<typeof renderMarkdown> }> {
  const { notes } = await services.notes.list(project, standing, kind, noteableId, { offset: 0, limit: NOTES_SHOWN });
  return renderNotes(services, renderings, project, standing, notes, description);
}

/** `…/issues`, `…/issues/new` and `…/issues/:iid` with its comments, closing and reopening. */
export function issueRoutes(pages: FastifyInstance, { services, renderings }: IssueRouteDeps): void {
  const base = '/:namespace/:project/issues';

  pages.get<{ Params: ProjectParams; Querystring: Static<typeof ListQuery> }>(
    base,
    { config: PAGE, schema: { querystring: ListQuery } },
    async (request, reply) => {
      const { project, standing } = await projectFor(services, request, 'read_issue');
      const { query } = request;
      const state = query.state === 'closed' || query.state === 'all' ? query.state : 'opened';
      const page = pageNumber(query.page);
      const filters: IssueFilters = { state, ...listFilters(query) };
      const { issues, total } = await services.issues.listForProject(project, standing, filters, {
        offset: (page - 1) * PER_PAGE,
        limit: PER_PAGE,
      });
      const body = issueListPage({
        projectPath: projectPath(project),
        issues,
        total,
        page,
        perPage: PER_PAGE,
        state,
        query: askedQuery(query),
        signedIn: request.web.user !== null,
      });
      return sendPage(request, reply, `Issues · ${project.name}`, body);
    },
  );

  const showForm = async (
    request: FastifyRequest<{ Params: ProjectParams }>,
    reply: FastifyReply,
    project: Project,
    standing: ProjectStanding,
    values: Parameters<typeof issuableForm>[1]['values'] = {},
    errors?: Parameters<typeof issuableForm>[1]['errors'],
  ) => {
    const choices = await issuableChoices(services, project, standing);
    const form = { action: `${projectPath(project)}/issues`, heading: 'New issue', submit: 'Submit issue', ...choices, values, errors };
    return sendPage(request, reply, `New issue · ${project.name}`, issuableForm(pageContext(request), form), errors ? 400 : 200);
  };

  pages.get<{ Params: ProjectParams }>(`${base}/new`, { config: PAGE }, async (request, reply) => {
    if (!request.web.user) return signInFirst(request, reply);
    const { project, standing } = await projectFor(services, request, 'create_issue');
    return showForm(request, reply, project, standing);
  });

  pages.post<{ Params: ProjectParams; Body: Static<typeof IssueBody> }>(
    base,
    { config: PAGE, schema: { body: IssueBody } },
    async (request, reply) => {
      const user = request.web.user;
      if (!user) throw new WebError(404);
      const { project, standing } = await projectFor(services, request, 'create_issue');
      const { body } = request;
      const values = {
        title: body.title,
        description: body.description,
        assigneeId: body.assignee_id,
        milestoneId: body.milestone_id,
        labels: formList(body.labels),
      };
      if (!body.title?.trim()) return showForm(request, reply, project, standing, values, { title: ["can't be blank"] });
      try {
        const created = await services.slashCommands.createIssue(project, standing, user, {
          title: body.title,
          description: body.description || undefined,
          assigneeId: formId(body.assignee_id) ?? undefined,
          milestoneId: formId(body.milestone_id) ?? undefined,
          labels: values.labels.length ? values.labels : undefined,
        });
        return reply.redirect(`${projectPath(project)}/issues/${created.issue.iid}`, 303);
      } catch (error) {
        const errors = fieldErrors(error);
        if (!errors) throw error;
        return showForm(request, reply, project, standing, values, errors);
      }
    },
  );

  /** The issue of the path, or the page's 404 (also for a confidential issue the caller may not read). */
  const issueFor = async (request: FastifyRequest<{ Params: IssuableParams }>) => {
    const { project, standing } = await projectFor(services, request, 'read_issue');
    const id = await services.issues.idByIid(project, standing, recordNumber(request.params.iid));
    return { project, standing, id };
  };

  pages.get<{ Params: IssuableParams }>(`${base}/:iid`, { config: PAGE }, async (request, reply) => {
    const { project, standing, id } = await issueFor(request);
    const details = await services.issues.find(project, standing, id);
    const shown = await shownNotes(services, renderings, project, standing, 'issues', id, details.issue.description);
    const view = { details, projectPath: projectPath(project), ...shown, mayUpdate: mayUpdateIssue(standing, details.issue) };
    return sendPage(
      request,
      reply,
      `${details.issue.title} (#${details.issue.iid}) · ${project.name}`,
      issuePage(pageContext(request), view),
    );
  });

  issuableRoutes(pages, services, {
    kind: 'issues',
    find: issueFor,
    update: (project, standing, user, id, changes) => services.slashCommands.updateIssue(project, standing, user, id, changes),
  });
}
