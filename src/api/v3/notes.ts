import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import type { NoteRow } from '../../services/notes/types';
import type { NoteableKind } from '../../services/notes/noteables';
import type { NoteOrCommands } from '../../services/slash-commands/slash-commands';
import { Note, presentNote } from './entities/note';
import { AwardEmoji, presentAwardEmoji } from '../shared/entities/award-emoji';
import { NoteCommands, presentNoteCommands } from '../shared/entities/note-commands';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { invalidParam } from '../../errors';
import { RecordId, TextString } from '../shared/params';

const NoteablePath = Type.Object({ id: Type.String(), noteable_id: RecordId });
const NotePath = Type.Object({ id: Type.String(), noteable_id: RecordId, note_id: RecordId });
const PageQuery = Type.Object({ page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) });
const NoParams = Type.Object({});
const CreateBody = Type.Object({ body: TextString(), created_at: Type.Optional(Type.String()) });
const UpdateBody = Type.Object({ body: TextString() });

// Each noteable kind is read under its own ability, off with its feature (as the issues and
// snippets routes are); which issue or snippet a caller sees, and who writes notes, the service decides.
const KINDS: { kind: NoteableKind; ability: 'read_issue' | 'read_project_snippet' | 'read_merge_request' }[] = [
  { kind: 'issues', ability: 'read_issue' },
  { kind: 'merge_requests', ability: 'read_merge_request' },
  { kind: 'snippets', ability: 'read_project_snippet' },
];

/** An ISO 8601 time, stored as Forge stores every time. */
function timeParam(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const time = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(time.getTime())) throw invalidParam(name);
  return time.toISOString();
}

/** Notes on a project's issues and snippets (GitLab 8.12's `notes.rb`). */
export function notesRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { notes, users, slashCommands } = services;

  const present = async (list: NoteRow[]) => {
    const authors = await users.findMany(list.flatMap((note) => (note.author_id === null ? [] : [note.author_id])));
    return list.map((note) => presentNote(note, note.author_id === null ? undefined : authors.get(note.author_id), presenter));
  };
  const presentOne = async (note: NoteRow) => (await present([note]))[0];

  for (const { kind, ability } of KINDS) {
    const config = { project: ability } as const;
    const path = `/projects/:id/${kind}/:noteable_id/notes`;

    api.get(
      path,
      {
        config,
        schema: { params: NoteablePath, querystring: PageQuery, response: { 200: Type.Array(Note) } },
      },
      async (request, reply) => {
        const page = pageOf(request.query);
        const { notes: list, total } = await notes.list(request.project, request.standing, kind, request.params.noteable_id, page);
        setPageHeaders(request, reply, presenter.externalUrl, page, total);
        return present(list);
      },
    );

    api.get(
      `${path}/:note_id`,
      {
        config,
        schema: { params: NotePath, querystring: NoParams, response: { 200: Note } },
      },
      async (request) =>
        presentOne(await notes.find(request.project, request.standing, kind, request.params.noteable_id, request.params.note_id)),
    );

    // A missing or blank body is 8.12's `required_attributes!` answer (`http/params.ts`). 8.12 answered an award (a body of one emoji only) with the award emoji, not a note.
    api.post(
      path,
      {
        config,
        schema: { params: NoteablePath, body: CreateBody, response: { 201: Type.Union([Note, AwardEmoji]), 202: NoteCommands } },
      },
      async (request, reply) => {
        const { body, created_at } = request.body;
        const actor = request.user!;
        const given = { body, createdAt: timeParam('created_at', created_at) };
        // Notes on issues and merge requests may hold slash commands; a note of commands only is none (202).
        const created: NoteOrCommands =
          kind === 'snippets'
            ? await notes.create(request.project, request.standing, actor, kind, request.params.noteable_id, given)
            : await slashCommands.createNote(request.project, request.standing, actor, kind, request.params.noteable_id, given);
        if (created.commands) return reply.status(202).send(presentNoteCommands(created));
        const answer = created.award
          ? presentAwardEmoji(created.award, new Map([[actor.id, actor]]), presenter)
          : await presentOne(created.note);
        return reply.status(201).send(answer);
      },
    );

    api.put(
      `${path}/:note_id`,
      {
        config,
        schema: { params: NotePath, body: UpdateBody, response: { 200: Note } },
      },
      async (request) => {
        const { noteable_id, note_id } = request.params;
        return presentOne(
          await notes.update(request.project, request.standing, request.user!, kind, noteable_id, note_id, request.body.body),
        );
      },
    );

    api.delete(
      `${path}/:note_id`,
      {
        config,
        schema: { params: NotePath, querystring: NoParams, response: { 200: Note } },
      },
      async (request) => {
        const { noteable_id, note_id } = request.params;
        return presentOne(await notes.remove(request.project, request.standing, request.user!, kind, noteable_id, note_id));
      },
    );
  }
}
