import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Api, RouteDeps } from '../shared/types';
import type { NoteRow } from '../../services/notes/types';
import type { NoteableKind } from '../../services/notes/noteables';
import type { NoteOrCommands } from '../../services/slash-commands/slash-commands';
import { Note, presentNote } from './entities/note';
import { AwardEmoji, presentAwardEmoji } from '../shared/entities/award-emoji';
import { NoteCommands, presentNoteCommands } from '../shared/entities/note-commands';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { RecordId, TextString } from '../shared/params';
import { PageParams, timeParam } from './issuable-params';
import { noteableIdResolver } from './noteables';

const NoteablePath = Type.Object({ id: Type.String(), noteable_id: RecordId });
const NotePath = Type.Object({ id: Type.String(), noteable_id: RecordId, note_id: RecordId });
const ListQuery = Type.Object({ order_by: Type.Optional(Type.String()), sort: Type.Optional(Type.String()), ...PageParams });
const NoParams = Type.Object({});
const CreateBody = Type.Object({ body: TextString(), created_at: Type.Optional(Type.String()) });
const UpdateBody = Type.Object({ body: TextString() });

// Each noteable kind is read under its own ability, off with its feature; which issue or snippet a
// caller sees, and who writes notes, the service decides.
const KINDS: { kind: NoteableKind; ability: 'read_issue' | 'read_project_snippet' | 'read_merge_request' }[] = [
  { kind: 'issues', ability: 'read_issue' },
  { kind: 'merge_requests', ability: 'read_merge_request' },
  { kind: 'snippets', ability: 'read_project_snippet' },
];

/**
 * Notes on a project's issues, merge requests (both by `iid`) and snippets (by id), as GitLab 11's
 * `notes.rb`. A list is oldest first unless `sort=desc`; `order_by` is `created_at` or `updated_at`.
 */
export function notesRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { notes, users, slashCommands } = services;
  const noteableId = noteableIdResolver(services);

  for (const { kind, ability } of KINDS) {
    const path = `/projects/:id/${kind}/:noteable_id/notes`;
    // Issues and merge requests are numbered in their project; the answer names that number.
    const iidOf = (request: FastifyRequest) => (kind === 'snippets' ? null : (request.params as { noteable_id: number }).noteable_id);
    const present = async (list: NoteRow[], iid: number | null) => {
      const authors = await users.findMany(list.flatMap((note) => [note.author_id, note.resolved_by_id].filter((id) => id !== null)));
      return list.map((note) =>
        presentNote(note, note.author_id === null ? undefined : authors.get(note.author_id), iid, presenter, authors),
      );
    };

    api.get(
      path,
      {
        config: { access: 'optional', project: ability },
        schema: { params: NoteablePath, querystring: ListQuery, response: { 200: Type.Array(Note) } },
      },
      async (request, reply) => {
        const page = pageOf(request.query);
        // The service finds an issue or a merge request by its iid in the same query that reads it.
        const number = request.params.noteable_id;
        const noteable = kind === 'snippets' ? number : { iid: number };
        const { order_by: orderBy, sort } = request.query;
        const sorted = orderBy === 'updated_at' || sort === 'desc';
        // The service pages oldest first; another order is read whole, sorted, then paged.
        const range = sorted ? { offset: 0, limit: Number.MAX_SAFE_INTEGER } : page;
        const { notes: list, total } = await notes.list(request.project, request.standing, kind, noteable, range);
        const field = orderBy === 'updated_at' ? 'updated_at' : 'created_at';
        const direction = sort === 'desc' ? -1 : 1;
        const shown = sorted
          ? list.sort((a, b) => direction * (a[field].localeCompare(b[field]) || a.id - b.id)).slice(page.offset, page.offset + page.limit)
          : list;
        setPageHeaders(request, reply, presenter.externalUrl, page, total);
        return present(shown, iidOf(request));
      },
    );

    api.get(
      `${path}/:note_id`,
      {
        config: { access: 'optional', project: ability },
        schema: { params: NotePath, querystring: NoParams, response: { 200: Note } },
      },
      async (request) => {
        const id = await noteableId(request, kind);
        return (await present([await notes.find(request.project, request.standing, kind, id, request.params.note_id)], iidOf(request)))[0];
      },
    );

    // A note of slash commands only makes none (202); a note of one award emoji only is an award (201, the award).
    api.post(
      path,
      {
        config: { project: ability },
        schema: { params: NoteablePath, body: CreateBody, response: { 201: Type.Union([Note, AwardEmoji]), 202: NoteCommands } },
      },
      async (request, reply) => {
        const { body, created_at } = request.body;
        const actor = request.user!;
        const id = await noteableId(request, kind);
        const given = { body, createdAt: timeParam('created_at', created_at) };
        const created: NoteOrCommands =
          kind === 'snippets'
            ? await notes.create(request.project, request.standing, actor, kind, id, given)
            : await slashCommands.createNote(request.project, request.standing, actor, kind, id, given);
        if (created.commands) return reply.status(202).send(presentNoteCommands(created));
        const answer = created.award
          ? presentAwardEmoji(created.award, new Map([[actor.id, actor]]), presenter)
          : (await present([created.note], iidOf(request)))[0];
        return reply.status(201).send(answer);
      },
    );

    api.put(
      `${path}/:note_id`,
      { config: { project: ability }, schema: { params: NotePath, body: UpdateBody, response: { 200: Note } } },
      async (request) => {
        const id = await noteableId(request, kind);
        const updated = await notes.update(
          request.project,
          request.standing,
          request.user!,
          kind,
          id,
          request.params.note_id,
          request.body.body,
        );
        return (await present([updated], iidOf(request)))[0];
      },
    );

    // v4 answers a deletion with no content.
    api.delete(
      `${path}/:note_id`,
      {
        config: { project: ability },
        schema: { params: NotePath, querystring: NoParams, response: { 204: Type.Null({ description: 'removed' }) } },
      },
      async (request, reply) => {
        const id = await noteableId(request, kind);
        await notes.remove(request.project, request.standing, request.user!, kind, id, request.params.note_id);
        return reply.status(204).send(null);
      },
    );
  }
}
