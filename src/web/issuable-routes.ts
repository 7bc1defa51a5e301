import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../services/index';
import type { Project } from '../services/projects/types';
import type { User } from '../services/users/users';
import { can, type ProjectStanding } from '../services/policy';
import { PAGE, WebError } from './request';
import type { ProjectParams } from './project-scope';
import { projectPath } from './paths';
import { formList } from './issuable-choices';

/** An issue's or a merge request's path: the project's, then the record's number in it. */
export type IssuableParams = ProjectParams & { iid: string };

/** What the issue and merge request pages tell apart: the path segment (also the notes' kind), how a record is found and changed. */
export interface IssuableKind {
  kind: 'issues' | 'merge_requests';
  /** The record of the path and the caller's standing, or the page's 404 (also for one the caller may not read). */
  find(request: FastifyRequest<{ Params: IssuableParams }>): Promise<{ project: Project; standing: ProjectStanding; id: number }>;
  /** A change through the slash commands service, as the API's update makes it. */
  update(
    project: Project,
    standing: ProjectStanding,
    user: User,
    id: number,
    changes: { stateEvent: 'close' | 'reopen' },
  ): Promise<unknown>;
}

const Text = Type.Optional(Type.String({ maxLength: 1000 }));
/** The filters of an issue or merge request list, as GitLab 8.12's list pages link them. */
export const ListQuery = Type.Object({
  state: Text,
  search: Text,
  label_name: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Array(Type.String({ maxLength: 255 }), { maxItems: 20 })])),
  milestone_title: Text,
  author_id: Text,
  assignee_id: Text,
  page: Text,
});
const NoteBody = Type.Object({ authenticity_token: Text, note: Type.Optional(Type.String({ maxLength: 1_000_000 })) });
const TokenBody = Type.Object({ authenticity_token: Text });

/** A positive number from a filter, or undefined for blank or anything else. */
export const filterNumber = (value: string | undefined) => (value && /^\d{1,9}$/.test(value) ? Number(value) : undefined);

/** Labels of a filter: repeated fields, or one field of comma-separated titles. */
const labelNames = (value: string | string[] | undefined) =>
  formList(value)
    .flatMap((part) => part.split(','))
    .map((title) => title.trim())
    .filter(Boolean);

/** A list page's filters other than its state, newest first: the same for issues and merge requests. */
export function listFilters(query: Static<typeof ListQuery>) {
  const labels = labelNames(query.label_name);
  return {
    allLabels: labels.length ? labels : undefined,
    milestone: query.milestone_title || undefined,
    authorId: filterNumber(query.author_id),
    assigneeId: filterNumber(query.assignee_id),
    search: query.search || undefined,
    orderBy: 'created_at',
    sort: 'desc',
  } as const;
}

/** The query of a list page as asked, without what is empty. */
export function askedQuery(query: Record<string, string | string[] | undefined>): URLSearchParams {
  const asked = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) for (const one of formList(value)) if (one !== '') asked.append(name, one);
  return asked;
}

/** `…/:iid/notes`, `…/:iid/close` and `…/:iid/reopen` of issues or merge requests: each write through the slash commands service, then back to the record's page. */
export function issuableRoutes(pages: FastifyInstance, services: Services, { kind, find, update }: IssuableKind): void {
  const base = `/:namespace/:project/${kind}/:iid`;
  const pathOf = (project: Project, iid: string) => `${projectPath(project)}/${kind}/${iid}`;

  pages.post<{ Params: IssuableParams; Body: Static<typeof NoteBody> }>(
    `${base}/notes`,
    { config: PAGE, schema: { body: NoteBody } },
    async (request, reply) => {
      const user = request.web.user;
      if (!user) throw new WebError(404);
      const { project, standing, id } = await find(request);
      const path = pathOf(project, request.params.iid);
      if (!can(standing, 'create_note')) throw new WebError(404);
      if (!request.body.note?.trim()) return reply.redirect(path, 303);
      const created = await services.slashCommands.createNote(project, standing, user, kind, id, { body: request.body.note });
      return reply.redirect(created.note ? `${path}#note_${created.note.id}` : path, 303);
    },
  );

  for (const stateEvent of ['close', 'reopen'] as const) {
    pages.post<{ Params: IssuableParams; Body: Static<typeof TokenBody> }>(
      `${base}/${stateEvent}`,
      { config: PAGE, schema: { body: TokenBody } },
      async (request, reply) => {
        const user = request.web.user;
        if (!user) throw new WebError(404);
        const { project, standing, id } = await find(request);
        await update(project, standing, user, id, { stateEvent });
        return reply.redirect(pathOf(project, request.params.iid), 303);
      },
    );
  }
}
