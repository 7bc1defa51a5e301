import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { LintResult, presentLintResult } from '../shared/entities/lint';

/** `.gitlab-ci.yml` validation: no token needed, as GitLab 9–11 had it. */
export function lintRoutes(api: Api, { services }: RouteDeps): void {
  api.post(
    '/ci/lint',
    {
      config: { access: 'public', grapeParams: true },
      // A missing `content` is `content is missing`; the size is the linter's answer, not a 400.
      schema: { body: Type.Object({ content: Type.String() }), response: { 200: LintResult } },
    },
    async (request, reply) =>
      reply
        .status(200)
        .send(presentLintResult(await services.ciLint.firstErrorWithIncludes(request.body.content, request.user?.id ?? null))),
  );
}
