import { Type } from '@sinclair/typebox';
import type { Api } from '../../http/api';
import type { RunnerV4Deps } from './deps';
import { infoOf, sendRunnerJson } from '../shared/runner-requests';
import { runnerToken, requireRunner } from './tokens';
import { ACCESS_LEVELS, parseTagList } from '../../services/ci/runners/registration';
import { grapeError, validationFailed } from '../../errors';

const Info = Type.Optional(Type.Object({}, { additionalProperties: true }));

const Registration = Type.Object({
  token: Type.String(),
  description: Type.Optional(Type.String()),
  maintenance_note: Type.Optional(Type.String()),
  // A comma-separated string (gitlab-runner) or an array (`tag_list[]=…`).
  tag_list: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String()])),
  run_untagged: Type.Optional(Type.Boolean()),
  locked: Type.Optional(Type.Boolean()),
  active: Type.Optional(Type.Boolean()),
  paused: Type.Optional(Type.Boolean()),
  access_level: Type.Optional(Type.String()),
  maximum_timeout: Type.Optional(Type.Integer()),
  info: Info,
});

const RunnerTokenBody = Type.Object({ token: Type.String(), system_id: Type.Optional(Type.String()), info: Info });

const Registered = Type.Object({ id: Type.Integer(), token: Type.String() });
const Verified = Type.Object({ id: Type.Integer(), token: Type.String(), token_expires_at: Type.Null() });

/**
 * A runner's own registration, check and removal (GitLab's `API::Ci::Runner`): `POST /runners`,
 * `POST /runners/verify`, `DELETE /runners`. They live beside the consumer API's `/runners` routes
 * (`GET /runners`, `GET|PUT|DELETE /runners/:id`), which no method and path here shares.
 */
export function runnersRoutes(api: Api, { services }: RunnerV4Deps): void {
  const registration = services.runnerRegistration;
  const runners = runnerToken(registration);

  api.post('/runners', { schema: { body: Registration, response: { 201: Registered } } }, async (request, reply) => {
    const body = request.body;
    if (body.access_level !== undefined && !ACCESS_LEVELS.includes(body.access_level))
      throw grapeError(400, 'access_level does not have a valid value');
    if (body.maximum_timeout !== undefined && body.maximum_timeout < 600)
      throw validationFailed({ maximum_timeout: ['needs to be at least 10 minutes'] });
    if (body.run_untagged === false && parseTagList(body.tag_list).length === 0)
      throw validationFailed({ tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] });
    const { runner, token } = await registration.register({
      token: body.token,
      description: body.description,
      tagList: body.tag_list,
      runUntagged: body.run_untagged,
      locked: body.locked,
      active: body.paused === true ? false : body.active,
      accessLevel: body.access_level,
      maximumTimeout: body.maximum_timeout,
      info: infoOf(body),
    });
    return sendRunnerJson(reply, 201, { id: runner.id, token });
  });

  // Runners since 16 decode an answer here; older ones read the status only.
  api.post('/runners/verify', { schema: { body: RunnerTokenBody, response: { 200: Verified } } }, async (request, reply) => {
    const runner = await registration.contacted(await requireRunner(runners, request, request.body), infoOf(request.body));
    return sendRunnerJson(reply, 200, { id: runner.id, token: request.body.token, token_expires_at: null });
  });

  api.delete('/runners', { schema: { body: RunnerTokenBody, response: { 204: Type.Null() } } }, async (request, reply) => {
    await registration.remove(request.body.token);
    return reply.code(204).send(null);
  });
}
