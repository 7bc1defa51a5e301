import { Type } from '@sinclair/typebox';
import type { Api } from '../../http/api';
import type { RunnerApiDeps } from './deps';
import { BuildPayload, presentBuildPayload } from './entities/build';
import { idOf, infoOf, knowsNoContent, paramsOf, sendRunnerJson, textOf } from './request';
import { requireRunner, runnerToken } from './tokens';
import { notFound } from '../../errors';

/** Runners asking for builds and reporting on them (reference §2.3, §2.4). */
export function buildsRoutes(api: Api, { services }: RunnerApiDeps): void {
  const runnerTokens = runnerToken(services.runnerRegistration);

  api.post('/builds/register', { schema: { response: { 201: BuildPayload, 204: Type.Null() } } }, async (request, reply) => {
    const params = paramsOf(request);
    let runner = await requireRunner(runnerTokens, request, params);
    runner = await services.runnerRegistration.contacted(runner, infoOf(params));
    if (!runner.active) throw notFound();
    const payload = await services.buildRequests.next(runner);
    if (payload) return sendRunnerJson(reply, 201, presentBuildPayload(payload));
    // 8.12 answered 500 when there was no User-Agent at all; Forge answers 404 like any other client.
    if (knowsNoContent(request)) return reply.code(204).send(null);
    throw notFound();
  });

  // `PUT builds/-1` is the runner's liveness check: 404 for a valid token, 403 for a removed runner.
  api.put('/builds/:id', async (request) => {
    const params = paramsOf(request);
    // 8.12 ignores the `info` a PUT carries; only the last contact is noted.
    const runner = await services.runnerRegistration.contacted(await requireRunner(runnerTokens, request, params));
    await services.buildRequests.update(runner, idOf((request.params as { id: string }).id), {
      state: textOf(params.state),
      trace: textOf(params.trace),
    });
    return true;
  });
}
