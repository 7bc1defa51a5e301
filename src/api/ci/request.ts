import type { FastifyRequest } from 'fastify';

export { idOf, infoOf, paramsOf, sendRunnerJson, textOf } from '../shared/runner-requests';

// A stable or beta gitlab-ci-multi-runner followed by a space (reference §2.3 step 6), not anchored.
const RUNNER_USER_AGENT = /gitlab-ci-multi-runner \d+\.\d+\.\d+(~beta\.\d+\.g[0-9a-f]+)? /;

/** Whether the client knows 204 for "no build" (runner 1.3+); older clients and others get 404. */
export const knowsNoContent = (request: FastifyRequest): boolean => RUNNER_USER_AGENT.test(request.headers['user-agent'] ?? '');
