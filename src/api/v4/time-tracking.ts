import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import type { ProjectStanding } from '../../services/policy';
import type { Project } from '../../services/projects/types';
import type { TimeTracked } from '../../services/time-tracking/time-tracking';
import { invalidParam, notGiven } from '../../errors';
import { parseDuration } from '../../lib/durations';
import { RecordId } from '../shared/params';
import { TimeStats, presentTimeStats } from './entities/time-stats';

const Duration = Type.Object({ duration: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Number()])) });
const NoParams = Type.Object({});

/** `duration` from the body or the query (GitLab reads both): `3h30m`, `1w 2d`, or a number of hours. */
function durationParam(body: { duration?: string | number } | undefined, query: { duration?: string | number }): number {
  const given = body?.duration ?? query.duration;
  if (given === undefined || given === '') throw notGiven('duration');
  const seconds = parseDuration(String(given));
  if (seconds === undefined) throw invalidParam('duration');
  return seconds;
}

/**
 * Time tracking of issues and merge requests in v4 (GitLab's `TimeTrackingEndpoints`):
 * `time_estimate`, `reset_time_estimate`, `add_spent_time` (201), `reset_spent_time` and `time_stats`.
 */
export function timeTrackingRoutes(api: Api, { services }: RouteDeps): void {
  const { issues, mergeRequests, timeTracking } = services;
  const kinds: Array<{
    collection: TimeTracked;
    key: string;
    read: 'read_issue' | 'read_merge_request';
    find(project: Project, standing: ProjectStanding, iid: number): Promise<number>;
  }> = [
    {
      collection: 'issues',
      key: 'issue_iid',
      read: 'read_issue',
      find: (project, standing, iid) => issues.idByIid(project, standing, iid),
    },
    {
      collection: 'merge_requests',
      key: 'merge_request_iid',
      read: 'read_merge_request',
      find: (project, _standing, iid) => mergeRequests.idByIid(project, iid),
    },
  ];
  for (const { collection, key, read, find } of kinds) {
    const Path = Type.Object({ id: Type.String(), [key]: RecordId });
    const base = `/projects/:id/${collection}/:${key}`;
    type Request = { project: Project; standing: ProjectStanding; params: Record<string, unknown> };
    const idOf = (request: Request) => find(request.project, request.standing, request.params[key] as number);
    const present = (stats: { timeEstimate: number; totalTimeSpent: number }) => presentTimeStats(stats.timeEstimate, stats.totalTimeSpent);
    const write = {
      config: { project: read },
      schema: { params: Path, querystring: Duration, body: Type.Optional(Duration), response: { 200: TimeStats, 201: TimeStats } },
    } as const;

    api.get(
      `${base}/time_stats`,
      { config: { access: 'optional', project: read }, schema: { params: Path, querystring: NoParams, response: { 200: TimeStats } } },
      async (request) => present(await timeTracking.stats(collection, await idOf(request))),
    );
    api.post(`${base}/time_estimate`, write, async (request) => {
      const seconds = durationParam(request.body, request.query);
      return present(await timeTracking.setEstimate(request.standing, collection, await idOf(request), seconds));
    });
    api.post(`${base}/reset_time_estimate`, write, async (request) =>
      present(await timeTracking.setEstimate(request.standing, collection, await idOf(request), 0)),
    );
    api.post(`${base}/add_spent_time`, write, async (request, reply) => {
      const seconds = durationParam(request.body, request.query);
      const stats = await timeTracking.addSpent(request.standing, collection, await idOf(request), seconds);
      return reply.status(201).send(present(stats));
    });
    api.post(`${base}/reset_spent_time`, write, async (request) =>
      present(await timeTracking.resetSpent(request.standing, collection, await idOf(request))),
    );
  }
}
