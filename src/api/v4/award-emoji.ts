import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Api, RouteDeps } from '../shared/types';
import type { AwardRow, AwardTarget } from '../../services/award-emoji/award-emoji';
import { AwardEmoji, presentAwardEmoji } from '../shared/entities/award-emoji';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { NameString, RecordId } from '../shared/params';
import { PageParams } from './issuable-params';
import { noteableIdResolver } from './noteables';

const PageQuery = Type.Object(PageParams);
const NoParams = Type.Object({});
const AwardablePath = Type.Object({ id: Type.String(), awardable_id: RecordId });
const NotePath = Type.Object({ ...AwardablePath.properties, note_id: RecordId });
const AwardableAwardPath = Type.Object({ ...AwardablePath.properties, award_id: RecordId });
const NoteAwardPath = Type.Object({ ...NotePath.properties, award_id: RecordId });
const CreateBody = Type.Object({ name: NameString() });

/** The awardables Forge has, each under the ability that reads it: issues and merge requests by `iid`, snippets by id. */
const AWARDABLES = [
  { kind: 'issue', path: 'issues', ability: 'read_issue' },
  { kind: 'merge_request', path: 'merge_requests', ability: 'read_merge_request' },
  { kind: 'snippet', path: 'snippets', ability: 'read_project_snippet' },
] as const;

/** Award emoji of a project's issues, merge requests and snippets and of their notes (GitLab 11's `award_emoji.rb`). */
export function awardEmojiRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { awardEmoji, users } = services;
  const noteableId = noteableIdResolver(services);

  const present = async (awards: AwardRow[]) => {
    const owners = await users.findMany(awards.map((award) => award.user_id));
    return awards.map((award) => presentAwardEmoji(award, owners, presenter));
  };

  for (const awardable of AWARDABLES) {
    const target = async (request: FastifyRequest): Promise<AwardTarget> => {
      const params = request.params as { awardable_id: number; note_id?: number };
      const id = await noteableId(request, awardable.path, params.awardable_id);
      return { kind: awardable.kind, id, noteId: params.note_id };
    };
    for (const withNote of [false, true]) {
      const base = `/projects/:id/${awardable.path}/:awardable_id${withNote ? '/notes/:note_id' : ''}/award_emoji`;
      const Path = withNote ? NotePath : AwardablePath;
      const AwardPath = withNote ? NoteAwardPath : AwardableAwardPath;
      const read = { access: 'optional', project: awardable.ability } as const;

      api.get(
        base,
        { config: read, schema: { params: Path, querystring: PageQuery, response: { 200: Type.Array(AwardEmoji) } } },
        async (request, reply) => {
          const page = pageOf(request.query);
          const { awards, total } = await awardEmoji.list(request.project, request.standing, await target(request), page);
          setPageHeaders(request, reply, presenter.externalUrl, page, total);
          return present(awards);
        },
      );

      api.get(
        `${base}/:award_id`,
        { config: read, schema: { params: AwardPath, querystring: NoParams, response: { 200: AwardEmoji } } },
        async (request) =>
          (await present([await awardEmoji.find(request.project, request.standing, await target(request), request.params.award_id)]))[0],
      );

      api.post(
        base,
        { config: { project: awardable.ability }, schema: { params: Path, body: CreateBody, response: { 201: AwardEmoji } } },
        async (request, reply) => {
          const award = await awardEmoji.create(request.project, request.standing, request.user!, await target(request), request.body.name);
          return reply.status(201).send((await present([award]))[0]);
        },
      );

      // v4 answers a deletion with no content.
      api.delete(
        `${base}/:award_id`,
        {
          config: { project: awardable.ability },
          schema: { params: AwardPath, querystring: NoParams, response: { 204: Type.Null({ description: 'removed' }) } },
        },
        async (request, reply) => {
          await awardEmoji.remove(request.project, request.standing, request.user!, await target(request), request.params.award_id);
          return reply.status(204).send(null);
        },
      );
    }
  }
}
