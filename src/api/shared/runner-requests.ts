import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import type { RunnerInfo } from '../../services/ci/runners/registration';
import { RUNNER_INFO_FIELDS } from '../../services/ci/runners/registration';
import type { BuildRequestsService, JobFlavour } from '../../services/ci/runners/build-requests';
import type { RunnerJob } from '../../services/ci/runners/payload';
import type { BuildRow } from '../../services/ci/types';
import { missingArtifactsFile } from '../../services/ci/runners/artifacts';
import { recordIdOf } from '../../lib/record-id';
import { ApiError, badRequest, tooLarge } from '../../errors';

/*
 * What both runner API doors (v1 `/ci/api/v1`, v4 `/api/v4/jobs`) read and answer the same way:
 * their parameters, `info`, path ids, the exact `application/json` runners decode, and an
 * artifacts archive streamed out of a multipart body.
 */

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

/**
 * Reads an artifacts upload (a route with `config.ownBody`) part by part: the first `file` part
 * streams into the file store, every other part is read away. 400 without a file part or for a
 * malformed body, 413 past `MAX_ARTIFACTS_SIZE_MB`.
 */
export function receiveArtifacts(
  request: FastifyRequest,
  builds: BuildRequestsService,
  build: BuildRow,
  expireInSeconds: number | undefined,
  flavour: JobFlavour = {},
): Promise<RunnerJob> {
  return receiveFilePart(request, builds.artifactsLimitBytes, (part) =>
    builds.storeArtifacts(build, { filename: fileName(part.filename), source: part.source, expireInSeconds }, flavour),
  );
}

/**
 * Reads an upload's multipart body part by part and hands the first `file` part to `store` as a
 * stream; every other part is read away. 400 without a file part or for a malformed body, 413 for
 * a file of `limitBytes` or more.
 */
export async function receiveFilePart<T>(
  request: FastifyRequest,
  limitBytes: number,
  store: (part: { filename: string | undefined; source: AsyncIterable<Uint8Array> }) => Promise<T>,
): Promise<T> {
  if (!request.isMultipart()) throw missingArtifactsFile();
  // One byte past the limit is enough to know the upload is too large: busboy stops reading there.
  const limits = { fileSize: limitBytes + 1, files: 8, fields: 32, parts: 40 };
  let stored: { value: T } | undefined;
  try {
    for await (const part of request.parts({ limits })) {
      if (part.type === 'field' || part.fieldname !== 'file' || stored !== undefined) {
        await drain(part);
        continue;
      }
      stored = { value: await store({ filename: part.filename, source: part.file }) };
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if ((error as { statusCode?: number }).statusCode === 413) throw tooLarge();
    throw badRequest('400 (Bad request) the multipart body is malformed');
  }
  if (stored === undefined) throw missingArtifactsFile();
  return stored.value;
}

/** Reads a multipart body away without keeping it (an upload that is not stored). */
export async function drainParts(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart()) return;
  try {
    for await (const part of request.parts()) await drain(part);
  } catch {
    throw badRequest('400 (Bad request) the multipart body is malformed');
  }
}

async function drain(part: Multipart): Promise<void> {
  if (part.type === 'file') for await (const _ of part.file) void _;
}

/** The archive's name as the runner sent it (`<artifacts:name>.zip`), without any folder; `artifacts.zip` when blank. */
function fileName(sent: string | undefined): string {
  const base = path.posix.basename((sent ?? '').replace(/\\/g, '/')).replace(/[\r\n"]/g, '');
  return base === '' || base === '.' || base === '..' ? 'artifacts.zip' : base;
}
