import { Type } from '@sinclair/typebox';
import { grapeError } from '../../errors';
import type { Api, RouteDeps } from './types';
import { LintResult, presentLintResult } from './entities/lint';

/** `.gitlab-ci.yml` validation: no token needed, as in 8.12. */
export function lintRoutes(api: Api, { services }: RouteDeps): void {
  api.post('/ci/lint', {
    config: { access: 'public', grapeParams: true },
    schema: {
      // Required, but checked below: Grape's `requires` accepts an empty `content`, which 8.12
      // answers with its own message, where a required parameter here must not be blank.
      // The size is the linter's answer, not a 400 (see CiLintService).
      body: Type.Object({ content: Type.Optional(Type.String()) }),
      response: { 200: LintResult },
    },
  }, async (request, reply) => {
    const { content } = request.body;
    if (content === undefined) throw grapeError(400, 'content is missing');
    return reply.status(200).send(presentLintResult(services.ciLint.firstError(content)));
  });
}
