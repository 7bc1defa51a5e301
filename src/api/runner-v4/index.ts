import type { Api } from '../../http/api';
import type { RunnerV4Deps } from './deps';
import { runnersRoutes } from './runners';
import { jobsRoutes } from './jobs';
import { tracesRoutes } from './traces';
import { artifactsRoutes } from './artifacts';

/**
 * The runner API v4 (under `/api/v4`), spoken by gitlab-runner 10 to 17, over the same builds and
 * services as the runner API v1 (`src/api/ci/`). Its callers are runners and jobs, never users:
 * every route is `public` to the consumer API's authentication and checks its own token (runner or
 * job, `./tokens.ts`); parameters are Grape-declared (`{"error":"token is missing"}`).
 */
export async function registerRunnerApiV4(api: Api, deps: RunnerV4Deps): Promise<void> {
  api.addHook('onRoute', (route) => {
    route.config = { ...(route.config ?? {}), access: 'public', grapeParams: true };
  });
  runnersRoutes(api, deps);
  jobsRoutes(api, deps);
  artifactsRoutes(api, deps);
  // A trace part is raw bytes whatever its label (runners say text/plain).
  await api.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    tracesRoutes(raw, deps);
  });
}
