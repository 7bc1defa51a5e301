import { Type } from '@sinclair/typebox';
import type { Api } from '../../http/api';
import type { RunnerApiDeps } from './deps';
import { RegisteredRunner } from './entities/build';
import { infoOf, paramsOf, sendRunnerJson, textOf } from './request';
import { toBoolean } from '../../http/params';

const DeletedRunner = Type.Object({
  id: Type.Integer(),
  description: Type.Union([Type.String(), Type.Null()]),
  active: Type.Boolean(),
  is_shared: Type.Boolean(),
});

/** Runner registration and removal (reference §2.1, §2.2). */
export function runnersRoutes(api: Api, { services }: RunnerApiDeps): void {
  api.post('/runners/register', { schema: { response: { 201: RegisteredRunner } } }, async (request, reply) => {
    const params = paramsOf(request);
    const tagList = params.tag_list;
    const { runner, token } = await services.runnerRegistration.register({
      token: textOf(params.token),
      description: textOf(params.description),
      tagList: typeof tagList === 'string' || Array.isArray(tagList) ? (tagList as string | string[]) : undefined,
      runUntagged: toBoolean(params.run_untagged),
      locked: toBoolean(params.locked),
      info: infoOf(params),
    });
    return sendRunnerJson(reply, 201, { id: runner.id, token });
  });

  api.delete('/runners/delete', { schema: { response: { 200: DeletedRunner } } }, async (request) => {
    const runner = await services.runnerRegistration.remove(textOf(paramsOf(request).token));
    return { id: runner.id, description: runner.description, active: Boolean(runner.active), is_shared: Boolean(runner.is_shared) };
  });
}
