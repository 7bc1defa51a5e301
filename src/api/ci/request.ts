import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RunnerInfo } from '../../services/ci/runners/registration';
import { RUNNER_INFO_FIELDS } from '../../services/ci/runners/registration';
import { recordIdOf } from '../../lib/record-id';

/** The merged parameters of a runner API request (query and body; see src/http/params.ts). */
export function paramsOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  const fromBody =
    body !== null && typeof body === 'object' && !Buffer.isBuffer(body) && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  return { ...(request.query as Record<string, unknown>), ...fromBody };
}

/** A path id as a build id; undefined for anything that cannot name one (`-1`, `abc`, huge numbers). */
export function idOf(value: unknown): number | undefined {
  const id = typeof value === 'string' ? recordIdOf(value) : undefined;
  return id !== undefined && id >= 1 ? id : undefined;
}

/** `info` as a JSON object (runners) or as `info[field]` form keys (GitLab's specs). */
export function infoOf(params: Record<string, unknown>): RunnerInfo {
  const nested =
    params.info !== null && typeof params.info === 'object' && !Array.isArray(params.info) ? (params.info as Record<string, unknown>) : {};
  const info: RunnerInfo = {};
  for (const field of RUNNER_INFO_FIELDS) {
    const value = nested[field] ?? params[`info[${field}]`];
    if (typeof value === 'string') info[field] = value;
  }
  return info;
}

/** A string parameter, or undefined for any other type. */
export const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * Sends a body runners decode: `Content-Type: application/json` exactly, without the charset Fastify
 * adds to JSON (runners 1.x up to 1.9.1 compare the header for equality). Serialized by the route's
 * response schema for that status, and sent as bytes: Fastify appends the charset to any JSON
 * string it sends, but leaves the type of a Buffer alone.
 */
export function sendRunnerJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  reply.code(status);
  return reply.type('application/json').send(Buffer.from(reply.serialize(body) as string));
}

// A stable or beta gitlab-ci-multi-runner followed by a space (reference §2.3 step 6), not anchored.
const RUNNER_USER_AGENT = /gitlab-ci-multi-runner \d+\.\d+\.\d+(~beta\.\d+\.g[0-9a-f]+)? /;

/** Whether the client knows 204 for "no build" (runner 1.3+); older clients and others get 404. */
export const knowsNoContent = (request: FastifyRequest): boolean => RUNNER_USER_AGENT.test(request.headers['user-agent'] ?? '');
