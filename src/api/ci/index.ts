import type { Api } from '../../http/api';
import type { RunnerApiDeps } from './deps';
import { runnersRoutes } from './runners';
import { buildsRoutes } from './builds';
import { tracesRoutes } from './traces';
import { artifactsRoutes } from './artifacts';
import { triggersRoutes } from './triggers';

/**
 * The runner API (`/ci/api/v1`), spoken by gitlab-ci-multi-runner 1.x. Its callers are runners and
 * builds, never users: every route is `public` to the consumer API's authentication and checks its
 * own token (runner or build, `./tokens.ts`; the legacy trigger its trigger's).
 */
export async function registerRunnerApi(api: Api, deps: RunnerApiDeps): Promise<void> {
  api.addHook('onRoute', (route) => {
    route.config = { ...(route.config ?? {}), access: 'public' };
  });
  runnersRoutes(api, deps);
  buildsRoutes(api, deps);
  artifactsRoutes(api, deps);
  triggersRoutes(api, deps);
  // A trace part is raw bytes whatever its label (runners say text/plain): in its own scope every
  // body is read as bytes, so not even a JSON label has it parsed.
  await api.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    tracesRoutes(raw, deps);
  });
}
