import type { Readable } from 'node:stream';
import type { ServiceContext } from '../../context';
import type { BuildRow } from '../types';
import { artifactsKey } from '../builds/files';
import { refuseErased } from './build-access';
import { forbidden, notFound, notGiven, tooLarge } from '../../../errors';
import { now } from '../../../lib/time';

const MIB = 1024 * 1024;

/** Before reading an upload: only a running, not erased build takes artifacts. */
export function checkUploadable(build: BuildRow): void {
  if (build.status !== 'running') throw forbidden('Build is not running!');
  refuseErased(build);
}

/** Artifacts must be strictly smaller than `MAX_ARTIFACTS_SIZE_MB` MiB (GitLab's `max_artifacts_size`). */
export function artifactsLimitBytes(ctx: ServiceContext): number {
  return ctx.config.maxArtifactsSizeMb * MIB;
}

/**
 * Streams an uploaded archive into the file store, replacing the build's earlier one, and records
 * its name, size and expiry (`expireInSeconds` from `expire_in`; none resets it to never, as every
 * 8.12 upload did). The archive is never held whole in memory. At the size limit the upload stops
 * with 413 and the partial file is discarded (the store keeps the old file or nothing).
 */
export async function storeArtifacts(
  ctx: ServiceContext,
  build: BuildRow,
  upload: { filename: string; source: AsyncIterable<Uint8Array>; expireInSeconds: number | undefined },
): Promise<BuildRow> {
  const limit = artifactsLimitBytes(ctx);
  const size = await ctx.files.put(artifactsKey(build), bounded(upload.source, limit));
  const time = now();
  const expireAt = upload.expireInSeconds === undefined ? null : new Date(Date.parse(time) + upload.expireInSeconds * 1000).toISOString();
  return ctx.db
    .updateTable('ci_builds')
    .set({ artifacts_file: upload.filename, artifacts_size: size, artifacts_expire_at: expireAt, updated_at: time })
    .where('id', '=', build.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

async function* bounded(source: AsyncIterable<Uint8Array>, limit: number): AsyncIterable<Uint8Array> {
  let total = 0;
  for await (const chunk of source) {
    total += chunk.length;
    if (total >= limit) throw tooLarge();
    yield chunk;
  }
  if (total >= limit) throw tooLarge();
}

/** A build's archive for download: its recorded name and bytes; 404 when there is none (expiry is not checked, as in 8.12). */
export async function readArtifacts(
  ctx: ServiceContext,
  build: BuildRow,
): Promise<{ filename: string; size: number | undefined; stream: Readable }> {
  if (build.artifacts_file === null) throw notFound();
  const stream = await ctx.files.read(artifactsKey(build));
  if (!stream) throw notFound();
  return { filename: build.artifacts_file, size: build.artifacts_size ?? undefined, stream };
}

/** Removes a build's archive and forgets it. */
export async function removeArtifacts(ctx: ServiceContext, build: BuildRow): Promise<void> {
  await ctx.files.delete(artifactsKey(build));
  await ctx.db
    .updateTable('ci_builds')
    .set({ artifacts_file: null, artifacts_size: null, artifacts_expire_at: null, updated_at: now() })
    .where('id', '=', build.id)
    .execute();
}

/** 400 as 8.12 answered an upload without a file part. */
export const missingArtifactsFile = () => notGiven('Missing artifacts file!');
