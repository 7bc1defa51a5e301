import { LIMITS } from '../../../lib/limits';
import { CiConfigError } from './checks';
import { buildConfig } from './config';
import { type IncludeContext, type IncludeReader, resolveIncludes } from './include';
import { loadYaml } from './load';
import type { ParseResult } from './types';

/**
 * `.gitlab-ci.yml` as GitLab 8.12 read it: a pure function from the file's text to the
 * normalized configuration, or to 8.12's message for the first problem (reference §6).
 */
export function parseCiConfig(text: string): ParseResult {
  try {
    const loaded = loadYaml(text);
    if (!loaded.ok) return loaded;
    return { ok: true, config: buildConfig(loaded.value) };
  } catch (e) {
    if (e instanceof CiConfigError) return { ok: false, error: e.message };
    // 8.12's `rescue => 'Undefined error'` for anything unexpected (a stack exhausted by
    // nesting included): a file never makes this function throw.
    return { ok: false, error: 'Undefined error' };
  }
}

/**
 * Today's `.gitlab-ci.yml`: as `parseCiConfig`, with `include:` read through `reader` (local
 * files from `at`, the commit of the file; none for a linted text).
 */
export async function composeCiConfig(text: string, reader: IncludeReader, at: IncludeContext | null): Promise<ParseResult> {
  try {
    const loaded = loadYaml(text);
    if (!loaded.ok) return loaded;
    return { ok: true, config: buildConfig(await resolveIncludes(loaded.value, reader, at)) };
  } catch (e) {
    if (e instanceof CiConfigError) return { ok: false, error: e.message };
    return { ok: false, error: 'Undefined error' };
  }
}

/** The lint endpoint's answer to empty content (pipelines say `Invalid configuration format`). */
export const EMPTY_CONTENT_MESSAGE = 'Please provide content of .gitlab-ci.yml';

/**
 * A file past `LIMITS.ciConfigBytes` is not parsed: the pipeline fails, and the linter answers,
 * with this message. (8.12 read any size; a 10 MB file tied up a worker parsing it.)
 */
export const CI_CONFIG_TOO_LARGE = `.gitlab-ci.yml is too large (at most ${LIMITS.ciConfigBytes} bytes)`;

export { DEFAULT_STAGES } from './config';
export { jobMatchesRef, jobsForRef, type RefContext } from './only-except';
export type * from './types';
export type { IncludeContext, IncludeReader } from './include';
