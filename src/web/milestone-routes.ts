import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services/index';
import { can } from '../services/policy';
import { PAGE, sendPage, WebError } from './request';
import { projectFor, recordNumber, type ProjectParams } from './project-scope';
import { projectPath } from './paths';
import { renderMarkdown } from './markdown';
import { pageReferences } from './references';
import { pageNumber } from './issue-routes';
import { milestoneListPage, type MilestoneState } from './pages/milestones/list';
import { milestonePage } from './pages/milestones/show';

export interface MilestoneRouteDeps {
  services: Services;
}

const PER_PAGE = 20;
/** The issues and merge requests a milestone's page lists at most, oldest first. */
const ITEMS_SHOWN = 200;
const Text = Type.Optional(Type.String({ maxLength: 1000 }));
const ListQuery = Type.Object({ state: Text, page: Text });

/** The web's tab names for the service's states (`active` is open). */
const SERVICE_STATE: Record<MilestoneState, string | undefined> = { opened: 'active', closed: 'closed', all: undefined };

/** `…/milestones` with each milestone's progress, and `…/milestones/:iid` (where `%milestone` references link). */
export function milestoneRoutes(pages: FastifyInstance, { services }: MilestoneRouteDeps): void {
  const base = '/:namespace/:project/milestones';

  pages.get<{ Params: ProjectParams; Querystring: Static<typeof ListQuery> }>(
    base,
    { config: PAGE, schema: { querystring: ListQuery } },
    async (request, reply) => {
      const { project, standing } = await projectFor(services, request, 'read_milestone');
      const asked = request.query.state;
      const state: MilestoneState = asked === 'closed' || asked === 'all' ? asked : 'opened';
      const page = pageNumber(request.query.page);
      const { milestones, total } = await services.milestones.list(
        project.id,
        { state: SERVICE_STATE[state] },
        { offset: (page - 1) * PER_PAGE, limit: PER_PAGE },
      );
      const progress = await services.milestones.progress(
        project.id,
        standing,
        milestones.map((milestone) => milestone.id),
      );
      const body = milestoneListPage({ projectPath: projectPath(project), milestones, progress, total, page, perPage: PER_PAGE, state });
      return sendPage(request, reply, `Milestones · ${project.name}`, body);
    },
  );

  pages.get<{ Params: ProjectParams & { iid: string } }>(`${base}/:iid`, { config: PAGE }, async (request, reply) => {
    const { project, standing } = await projectFor(services, request, 'read_milestone');
    const iid = recordNumber(request.params.iid);
    const {
      milestones: [milestone],
    } = await services.milestones.list(project.id, { iids: [String(iid)] }, { offset: 0, limit: 1 });
    if (!milestone) throw new WebError(404);
    const shown = { offset: 0, limit: ITEMS_SHOWN };
    const [progress, issues, mergeRequests, linker] = await Promise.all([
      services.milestones.progress(project.id, standing, [milestone.id]),
      can(standing, 'read_issue') ? services.issues.listForMilestone(project, standing, milestone.id, shown) : undefined,
      can(standing, 'read_merge_request')
        ? services.mergeRequests.list(
            project,
            standing,
            { state: 'all', milestone: milestone.title, orderBy: 'created_at', sort: 'asc' },
            shown,
          )
        : undefined,
      pageReferences(services, project, standing, [milestone.description]),
    ]);
    const body = milestonePage({
      projectPath: projectPath(project),
      milestone,
      description: renderMarkdown(milestone.description ?? '', linker),
      progress: progress.get(milestone.id) ?? { closed: 0, total: 0 },
      issues: issues?.issues ?? [],
      mergeRequests: mergeRequests?.mergeRequests,
    });
    return sendPage(request, reply, `${milestone.title} · Milestones · ${project.name}`, body);
  });
}
