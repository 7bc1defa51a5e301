import { Type, type Static } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import type { MergeRequestAttributes, MergeRequestFilters } from '../../services/merge-requests/types';
import {
  MergeRequest,
  MergeRequestRecord,
  MRNote,
  presentMergeRequest,
  presentMergeRequestRecord,
  presentMRNote,
} from './entities/merge-request';
import { Todo, presentTodo } from './entities/todo';
import { NoteCommands, presentNoteCommands } from '../shared/entities/note-commands';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { labelTitles } from '../../services/issues/label-names';
import { badRequest } from '../../errors';
import { FilePathString, filterId, idParam, NameString, RecordId, TextString } from '../shared/params';

const ProjectId = Type.Object({ id: Type.String() });
const MergeRequestPath = Type.Object({ id: Type.String(), merge_request_id: RecordId });
const Loose = Type.Optional(Type.Union([Type.Integer(), Type.String(), Type.Boolean(), Type.Null()]));
const Text = Type.Optional(Type.String());
const PageQuery = Type.Object({ page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) });
const NoParams = Type.Object({});
// A subscription or a todo that changes nothing is 304 with no body.
const NotModified = { 304: Type.Null({ description: 'nothing changed' }) };

const ListQuery = Type.Object({
  state: Text,
  order_by: Text,
  sort: Text,
  // One iid or a list (`iid[]=1&iid[]=2`), as 8.12's `filter_by_iid`.
  iid: Type.Optional(Type.Any()),
  page: Type.Optional(Type.Any()),
  per_page: Type.Optional(Type.Any()),
});

const Fields = {
  title: Type.Optional(NameString()),
  description: Type.Optional(TextString()),
  target_branch: Type.Optional(FilePathString()),
  assignee_id: Loose,
  milestone_id: Loose,
  labels: Type.Optional(TextString()),
};
// Required in the order of 8.12's `required_attributes!`, which names the first one missing (`http/params.ts`).
const CreateBody = Type.Object({
  source_branch: FilePathString(),
  target_branch: FilePathString(),
  title: NameString(),
  description: Fields.description,
  assignee_id: Loose,
  milestone_id: Loose,
  labels: Fields.labels,
  target_project_id: Loose,
});
// `source_branch` is accepted only to be refused with 8.12's own message.
const UpdateBody = Type.Object({ ...Fields, state_event: Text, source_branch: Type.Optional(Type.Any()) });
const CommentBody = Type.Object({ note: TextString() });

/** The fields create and update share, read as 8.12 did: blank values are not given (`attributes_for_keys`), except `labels`. */
function mergeRequestAttributes(body: Static<typeof CreateBody> | Static<typeof UpdateBody>): MergeRequestAttributes {
  const assigneeId = idParam('assignee_id', body.assignee_id);
  const milestoneId = idParam('milestone_id', body.milestone_id);
  return {
    title: body.title === '' ? undefined : body.title,
    description: body.description === '' ? undefined : body.description,
    targetBranch: body.target_branch === '' ? undefined : body.target_branch,
    // 0 names nobody and no milestone: it clears them.
    assigneeId: assigneeId === 0 ? null : assigneeId,
    milestoneId: milestoneId === 0 ? null : milestoneId,
    labels: body.labels === undefined ? undefined : labelTitles(body.labels),
  };
}

/** 8.12's list parameters: `state` opened (and reopened), closed, merged or all; `order_by` and `sort` default to created_at desc. */
function listFilters(query: Static<typeof ListQuery>): MergeRequestFilters {
  const state = query.state === 'opened' || query.state === 'closed' || query.state === 'merged' ? query.state : 'all';
  const given = query.iid === undefined || query.iid === '' ? undefined : ([] as unknown[]).concat(query.iid);
  return {
    state,
    iids: given?.map((iid) => filterId(iid) ?? -1),
    orderBy: query.order_by === 'updated_at' ? 'updated_at' : 'created_at',
    sort: query.sort === 'asc' ? 'asc' : 'desc',
  };
}

/**
 * A project's merge requests (GitLab 8.12's `merge_requests.rb`; their commits, changes, versions
 * and merging are `merge-request-git.ts`'s), their legacy comments, subscriptions and todos. Each
 * `…/merge_requests/:merge_request_id` route also answers on 8.12's deprecated singular `…/merge_request/…`.
 */
export function mergeRequestsRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { mergeRequests, notes, users, subscriptions, todos, slashCommands } = services;
  const read = { project: 'read_merge_request' } as const;

  api.get(
    '/projects/:id/merge_requests',
    {
      config: read,
      schema: { params: ProjectId, querystring: ListQuery, response: { 200: Type.Array(MergeRequest) } },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { mergeRequests: list, total } = await mergeRequests.list(request.project, request.standing, listFilters(request.query), page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return list.map((details) => presentMergeRequest(details, presenter));
    },
  );

  // The route's project is the source; `target_project_id` names the target (it, or its upstream).
  api.post(
    '/projects/:id/merge_requests',
    {
      config: { project: 'create_merge_request' },
      schema: { params: ProjectId, body: CreateBody, response: { 201: MergeRequest } },
    },
    async (request, reply) => {
      const { body } = request;
      const attributes = {
        ...mergeRequestAttributes(body),
        sourceBranch: body.source_branch,
        targetProjectId: idParam('target_project_id', body.target_project_id),
      };
      // The description's slash commands run with the merge request's creation.
      const created = await slashCommands.createMergeRequest(request.project, request.user!, attributes);
      return reply.status(201).send(presentMergeRequest(created, presenter));
    },
  );

  api.delete(
    '/projects/:id/merge_requests/:merge_request_id',
    {
      config: read,
      schema: { params: MergeRequestPath, querystring: NoParams, response: { 200: MergeRequestRecord } },
    },
    async (request) =>
      presentMergeRequestRecord(await mergeRequests.remove(request.project, request.standing, request.params.merge_request_id)),
  );

  api.post(
    '/projects/:id/merge_requests/:merge_request_id/todo',
    {
      config: read,
      schema: { params: MergeRequestPath, response: { 201: Todo, ...NotModified } },
    },
    async (request, reply) => {
      const marked = await todos.markMergeRequest(request.project, request.user!, request.params.merge_request_id);
      return reply.status(201).send(presentTodo(marked, presenter));
    },
  );

  for (const base of ['/projects/:id/merge_requests/:merge_request_id', '/projects/:id/merge_request/:merge_request_id']) {
    api.get(
      base,
      {
        config: read,
        schema: { params: MergeRequestPath, querystring: NoParams, response: { 200: MergeRequest } },
      },
      async (request) =>
        presentMergeRequest(await mergeRequests.find(request.project, request.standing, request.params.merge_request_id), presenter),
    );

    api.put(
      base,
      {
        config: read,
        schema: { params: MergeRequestPath, body: UpdateBody, response: { 200: MergeRequest } },
      },
      async (request) => {
        const { body } = request;
        const stateEvent: MergeRequestAttributes['stateEvent'] =
          body.state_event === 'close' || body.state_event === 'reopen' ? body.state_event : undefined;
        const given = body.source_branch !== undefined && body.source_branch !== '';
        const attributes = { ...mergeRequestAttributes(body), stateEvent, sourceBranch: given ? String(body.source_branch) : undefined };
        return presentMergeRequest(
          await slashCommands.updateMergeRequest(
            request.project,
            request.standing,
            request.user!,
            request.params.merge_request_id,
            attributes,
          ),
          presenter,
        );
      },
    );

    // 8.12's legacy comments: every note of the merge request, oldest first, as `{note, author}`.
    api.get(
      `${base}/comments`,
      {
        config: read,
        schema: { params: MergeRequestPath, querystring: PageQuery, response: { 200: Type.Array(MRNote) } },
      },
      async (request, reply) => {
        const page = pageOf(request.query);
        const { notes: list, total } = await notes.list(
          request.project,
          request.standing,
          'merge_requests',
          request.params.merge_request_id,
          page,
        );
        setPageHeaders(request, reply, presenter.externalUrl, page, total);
        const authors = await users.findMany(list.flatMap((note) => (note.author_id === null ? [] : [note.author_id])));
        return list.map((note) => presentMRNote(note, note.author_id === null ? undefined : authors.get(note.author_id), presenter));
      },
    );

    api.post(
      `${base}/comments`,
      {
        config: read,
        schema: { params: MergeRequestPath, body: CommentBody, response: { 201: MRNote, 202: NoteCommands } },
      },
      async (request, reply) => {
        const note = request.body.note;
        // An unknown merge request is 8.12's `404 Not found`, from the notes' own look-up.
        const actor = request.user!;
        // A comment is a note: its slash commands run too (8.12's `Notes::CreateService`); commands only make none (202).
        const created = await slashCommands.createNote(
          request.project,
          request.standing,
          actor,
          'merge_requests',
          request.params.merge_request_id,
          { body: note, plain: true },
        );
        if (created.commands) return reply.status(202).send(presentNoteCommands(created));
        if (!created.note) throw badRequest('Failed to save note');
        return reply.status(201).send(presentMRNote(created.note, actor, presenter));
      },
    );

    api.post(
      `${base}/subscription`,
      {
        config: read,
        schema: { params: MergeRequestPath, body: NoParams, response: { 201: MergeRequest, ...NotModified } },
      },
      async (request, reply) => {
        const subscribed = await subscriptions.subscribeToMergeRequest(request.project, request.standing, request.params.merge_request_id);
        return reply.status(201).send(presentMergeRequest(subscribed, presenter));
      },
    );

    api.delete(
      `${base}/subscription`,
      {
        config: read,
        schema: { params: MergeRequestPath, querystring: NoParams, response: { 200: MergeRequest, ...NotModified } },
      },
      async (request) =>
        presentMergeRequest(
          await subscriptions.unsubscribeFromMergeRequest(request.project, request.standing, request.params.merge_request_id),
          presenter,
        ),
    );
  }
}
