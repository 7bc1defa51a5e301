import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import type { AwardRow, AwardTarget } from '../../services/award-emoji/award-emoji';
import { AwardEmoji, presentAwardEmoji } from '../shared/entities/award-emoji';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { NameString, RecordId } from '../shared/params';

const PageQuery = Type.Object({ page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) });
const NoParams = Type.Object({});
const AwardablePath = Type.Object({ id: Type.String(), awardable_id: RecordId });
const NotePath = Type.Object({ ...AwardablePath.properties, note_id: RecordId });
const AwardableAwardPath = Type.Object({ ...AwardablePath.properties, award_id: RecordId });
const NoteAwardPath = Type.Object({ ...NotePath.properties, award_id: RecordId });
// 8.12 checked `name` with `required_attributes!`: a missing or blank one is `"name" not given`.
const CreateBody = Type.Object({ name: NameString() });

/** The awardables of 8.12's API that Forge has, each under the ability that reads it. */
const AWARDABLES = [
  { kind: 'issue', path: 'issues', ability: 'read_issue' },
  { kind: 'merge_request', path: 'merge_requests', ability: 'read_merge_request' },
  { kind: 'snippet', path: 'snippets', ability: 'read_project_snippet' },
] as const;

type PathParams = { awardable_id: number; note_id?: number };

/**
 * Award emoji of a project's issues and snippets and of their notes (GitLab 8.12's `award_emoji.rb`).
 * The guard checks that the caller reads the project's issues or snippets; the service, the one awardable.
 */
export function awardEmojiRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { awardEmoji, users } = services;

  const present = async (awards: AwardRow[]) => {
    const owners = await users.findMany(awards.map((award) => award.user_id));
    return awards.map((award) => presentAwardEmoji(award, owners, presenter));
  };

  for (const awardable of AWARDABLES) {
    const target = (params: PathParams): AwardTarget => ({ kind: awardable.kind, id: params.awardable_id, noteId: params.note_id });
    const config = { project: awardable.ability };
    for (const withNote of [false, true]) {
      const base = `/projects/:id/${awardable.path}/:awardable_id${withNote ? '/notes/:note_id' : ''}/award_emoji`;
      const Path = withNote ? NotePath : AwardablePath;
      const AwardPath = withNote ? NoteAwardPath : AwardableAwardPath;

      api.get(
        base,
        { config, schema: { params: Path, querystring: PageQuery, response: { 200: Type.Array(AwardEmoji) } } },
        async (request, reply) => {
          const page = pageOf(request.query);
          const { awards, total } = await awardEmoji.list(request.project, request.standing, target(request.params), page);
          setPageHeaders(request, reply, presenter.externalUrl, page, total);
          return present(awards);
        },
      );

      api.get(
        `${base}/:award_id`,
        { config, schema: { params: AwardPath, querystring: NoParams, response: { 200: AwardEmoji } } },
        async (request) => {
          const { params } = request;
          return (await present([await awardEmoji.find(request.project, request.standing, target(params), params.award_id)]))[0];
        },
      );

      api.post(
        base,
        {
          config,
          schema: { params: Path, body: CreateBody, response: { 201: AwardEmoji } },
        },
        async (request, reply) => {
          const award = await awardEmoji.create(
            request.project,
            request.standing,
            request.user!,
            target(request.params),
            request.body.name,
          );
          return reply.status(201).send((await present([award]))[0]);
        },
      );

      api.delete(
        `${base}/:award_id`,
        { config, schema: { params: AwardPath, querystring: NoParams, response: { 200: AwardEmoji } } },
        async (request) => {
          const { params } = request;
          return (
            await present([await awardEmoji.remove(request.project, request.standing, request.user!, target(params), params.award_id)])
          )[0];
        },
      );
    }
  }
}
