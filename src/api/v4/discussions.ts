import { Type, type Static } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Api, RouteDeps } from '../shared/types';
import type { Discussion as DiscussionRecord, GivenPosition } from '../../services/notes/merge-request-discussions';
import { hashParam } from '../../http/params';
import type { NoteRow } from '../../services/notes/types';
import { Note, presentNote } from './entities/note';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { RecordId, TextString } from '../shared/params';
import { PageParams } from './issuable-params';
import { invalidParam } from '../../errors';

const Discussion = Type.Object({ id: Type.String(), individual_note: Type.Boolean(), notes: Type.Array(Note) });
const MergeRequestPath = Type.Object({ id: Type.String(), merge_request_iid: RecordId });
const DiscussionPath = Type.Object({ id: Type.String(), merge_request_iid: RecordId, discussion_id: Type.String({ maxLength: 64 }) });
const DiscussionNotePath = Type.Object({
  id: Type.String(),
  merge_request_iid: RecordId,
  discussion_id: Type.String({ maxLength: 64 }),
  note_id: RecordId,
});
const NoteBody = Type.Object({ body: TextString() });
// `position` is a JSON object or Rack's `position[base_sha]=…` form keys, read by `hashParam`.
const CreateBody = Type.Object({ body: TextString() });
const POSITION_FIELDS = ['base_sha', 'start_sha', 'head_sha', 'position_type', 'old_path', 'new_path', 'old_line', 'new_line'] as const;
const Flag = Type.Optional(Type.Union([Type.Boolean(), Type.String({ maxLength: 5 })]));
const ResolveParams = Type.Object({ resolved: Flag });

/** The position's fields a line comment reads; anything but text or a number in them is a bad request. */
function givenPosition(value: unknown): GivenPosition | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidParam('position');
  const given: Record<string, string | number> = {};
  for (const field of POSITION_FIELDS) {
    const each = (value as Record<string, unknown>)[field];
    if (each === undefined || each === null) continue;
    if ((typeof each !== 'string' && typeof each !== 'number') || String(each).length > 4096) throw invalidParam(`position[${field}]`);
    given[field] = each;
  }
  return given as GivenPosition;
}

/** `true`/`false` as JSON or a form gives it; anything else is a bad request. */
function flag(value: boolean | string | undefined): boolean {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw invalidParam('resolved');
}

/**
 * GitLab 10's discussions of a merge request (`discussions.rb`): the list, one, a new one on a
 * line of the diff (`position[...]`), resolving one, and GitLab 11's replies in one (a note of
 * the same discussion, changed and removed there too). A discussion is a line comment with its
 * answers, or one note of its own (`individual_note`).
 */
export function discussionsRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { mergeRequestDiscussions: discussions, mergeRequests, users } = services;
  const base = '/projects/:id/merge_requests/:merge_request_iid/discussions';
  const config = { access: 'optional', project: 'read_merge_request' } as const;
  const mergeRequestId = (request: FastifyRequest) =>
    mergeRequests.idByIid(request.project, (request.params as Static<typeof MergeRequestPath>).merge_request_iid);
  const present = async (list: DiscussionRecord[], iid: number) => {
    const notes = list.flatMap((discussion) => discussion.notes);
    const people = await users.findMany(notes.flatMap((note) => [note.author_id, note.resolved_by_id].filter((id) => id !== null)));
    return list.map((discussion) => ({
      id: discussion.id,
      individual_note: discussion.individualNote,
      notes: discussion.notes.map((note) =>
        presentNote(note, note.author_id === null ? undefined : people.get(note.author_id), iid, presenter, people),
      ),
    }));
  };
  const presentOne = async (note: NoteRow, iid: number) => {
    const people = await users.findMany([note.author_id, note.resolved_by_id].filter((id) => id !== null));
    return presentNote(note, note.author_id === null ? undefined : people.get(note.author_id), iid, presenter, people);
  };

  api.get(
    base,
    { config, schema: { params: MergeRequestPath, querystring: Type.Object(PageParams), response: { 200: Type.Array(Discussion) } } },
    async (request, reply) => {
      const page = pageOf(request.query);
      const list = await discussions.list(request.project, request.standing, await mergeRequestId(request));
      setPageHeaders(request, reply, presenter.externalUrl, page, list.length);
      return present(list.slice(page.offset, page.offset + page.limit), request.params.merge_request_iid);
    },
  );

  api.get(`${base}/:discussion_id`, { config, schema: { params: DiscussionPath, response: { 200: Discussion } } }, async (request) => {
    const found = await discussions.find(request.project, request.standing, await mergeRequestId(request), request.params.discussion_id);
    return (await present([found], request.params.merge_request_iid))[0];
  });

  // Without a position this is a comment of its own, as `POST …/notes` makes.
  api.post(
    base,
    { config: { project: 'read_merge_request' }, schema: { params: MergeRequestPath, body: CreateBody, response: { 201: Discussion } } },
    async (request, reply) => {
      const { body } = request.body;
      const position = givenPosition(hashParam(request.body, 'position'));
      const id = await mergeRequestId(request);
      const actor = request.user!;
      const created: DiscussionRecord = position
        ? await discussions.create(request.project, request.standing, actor, id, { body, position })
        : await discussions.createIndividual(request.project, request.standing, actor, id, body);
      return reply.status(201).send((await present([created], request.params.merge_request_iid))[0]);
    },
  );

  // `resolved` may come in the query string (as GitLab's documentation shows it) or in the body.
  api.put(
    `${base}/:discussion_id`,
    {
      config: { project: 'read_merge_request' },
      schema: { params: DiscussionPath, querystring: ResolveParams, body: Type.Optional(ResolveParams), response: { 200: Discussion } },
    },
    async (request) => {
      const resolved = flag(request.query.resolved ?? request.body?.resolved);
      const id = await mergeRequestId(request);
      const changed = await discussions.resolve(
        request.project,
        request.standing,
        request.user!,
        id,
        request.params.discussion_id,
        resolved,
      );
      return (await present([changed], request.params.merge_request_iid))[0];
    },
  );

  // A reply; to a comment of its own, it makes that comment a thread (GitLab 11).
  api.post(
    `${base}/:discussion_id/notes`,
    { config: { project: 'read_merge_request' }, schema: { params: DiscussionPath, body: NoteBody, response: { 201: Note } } },
    async (request, reply) => {
      const id = await mergeRequestId(request);
      const { project, standing } = request;
      const note = await discussions.reply(project, standing, request.user!, id, request.params.discussion_id, request.body.body);
      return reply.status(201).send(await presentOne(note, request.params.merge_request_iid));
    },
  );

  api.put(
    `${base}/:discussion_id/notes/:note_id`,
    { config: { project: 'read_merge_request' }, schema: { params: DiscussionNotePath, body: NoteBody, response: { 200: Note } } },
    async (request) => {
      const id = await mergeRequestId(request);
      const { discussion_id: discussionId, note_id: noteId } = request.params;
      const note = await discussions.updateNote(
        request.project,
        request.standing,
        request.user!,
        id,
        discussionId,
        noteId,
        request.body.body,
      );
      return presentOne(note, request.params.merge_request_iid);
    },
  );

  api.delete(
    `${base}/:discussion_id/notes/:note_id`,
    {
      config: { project: 'read_merge_request' },
      schema: { params: DiscussionNotePath, response: { 204: Type.Null({ description: 'removed' }) } },
    },
    async (request, reply) => {
      const id = await mergeRequestId(request);
      const { discussion_id: discussionId, note_id: noteId } = request.params;
      await discussions.removeNote(request.project, request.standing, request.user!, id, discussionId, noteId);
      return reply.status(204).send(null);
    },
  );
}
