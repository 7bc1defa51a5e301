import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { LintResult, presentLintResult } from '../shared/entities/lint';

/** `.gitlab-ci.yml` validation: no token needed, as in 8.12. */
export function lintRoutes(api: Api, { services }: RouteDeps): void {
  api.post(
    '/ci/lint',
    {
      config: { access: 'public', grapeParams: true },
      schema: {
        // Grape's `requires`: a missing `content` is `content is missing`, an empty one is given (8.12
        // answered it with its own message). The size is the linter's answer, not a 400 (see CiLintService).
        body: Type.Object({ content: Type.String() }),
        response: { 200: LintResult },
      },
    },
    async (request, reply) => {
      return reply.status(200).send(presentLintResult(services.ciLint.firstError(request.body.content)));
    },
  );
}
