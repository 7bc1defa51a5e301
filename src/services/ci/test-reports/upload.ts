import { Readable, pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { ServiceContext } from '../../context';
import type { BuildRow } from '../types';
import { junitReportKey } from '../builds/files';
import { ApiError, badRequest, tooLarge } from '../../../errors';
import { now } from '../../../lib/time';
import { readJunit } from './junit-reader';
import { FAILED_NAMES_KEPT, caseLabel, countCase } from './summary';
import { emptyCounts, type StoredSummary } from './types';

/** How a runner sends a report: `gzip` (gitlab-runner's, each matched file a gzip member) or the XML as is. */
export type ReportFormat = 'gzip' | 'raw';

export interface ReportUpload {
  format: ReportFormat;
  source: AsyncIterable<Uint8Array>;
  expireInSeconds: number | undefined;
  /** `MAX_ARTIFACTS_SIZE_MB` in bytes: the upload, and the XML once unpacked, must be smaller. */
  limitBytes: number;
}

/**
 * Stores a job's JUnit report (`artifact_type=junit`), replacing an earlier one, unpacked on the
 * way in so that a bad gzip is a 400 and a gzip bomb a 413 before anything is kept (the store
 * discards a failed put). It is then read once for its counts, kept on the row with its expiry.
 */
export async function storeJunitReport(ctx: ServiceContext, build: BuildRow, upload: ReportUpload): Promise<BuildRow> {
  const key = junitReportKey(build);
  const sent = bounded(upload.source, upload.limitBytes);
  const xml = upload.format === 'gzip' ? bounded(gunzipped(sent), upload.limitBytes) : sent;
  let size: number;
  try {
    size = await ctx.files.put(key, xml);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (isZlibError(error)) throw badRequest('400 (Bad request) the junit report is not a valid gzip file');
    throw error;
  }
  const summary = await summarize(ctx, key);
  const time = now();
  const expireAt = upload.expireInSeconds === undefined ? null : new Date(Date.parse(time) + upload.expireInSeconds * 1000).toISOString();
  return ctx.db
    .updateTable('ci_builds')
    .set({ junit_report_size: size, junit_report_expire_at: expireAt, junit_report_summary: JSON.stringify(summary), updated_at: time })
    .where('id', '=', build.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The counts of a stored report and its first failed cases' names, read without keeping any output. */
async function summarize(ctx: ServiceContext, key: string): Promise<StoredSummary> {
  const counts = emptyCounts();
  const failedNames: string[] = [];
  const stream = (await ctx.files.read(key)) ?? Readable.from([]);
  const error = await readJunit(stream, (testCase) => {
    countCase(counts, testCase);
    if ((testCase.status === 'failed' || testCase.status === 'error') && failedNames.length < FAILED_NAMES_KEPT)
      failedNames.push(caseLabel(testCase));
  });
  stream.destroy();
  return { ...counts, suite_error: error, failed_names: failedNames };
}

async function* gunzipped(source: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  // Started only when read (the store opens its file first), so that no error comes before anyone
  // listens. `pipeline` destroys the gunzip with the source's error (a 413) or its own (bad data),
  // and the loop below throws it; the gunzip's late second report of the same error is ignored.
  const gunzip = createGunzip();
  gunzip.on('error', () => {});
  yield* pipeline(Readable.from(source), gunzip, () => {});
}

async function* bounded(source: AsyncIterable<Uint8Array>, limit: number): AsyncIterable<Uint8Array> {
  let total = 0;
  for await (const chunk of source) {
    total += chunk.length;
    if (total >= limit) throw tooLarge();
    yield chunk;
  }
}

function isZlibError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('Z_');
}
