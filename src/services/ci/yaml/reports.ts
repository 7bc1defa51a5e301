import { get, isArrayOfStrings, isHash, isString, structural, unknownKeys } from './checks';
import type { CiReports } from './types';

/*
 * `artifacts: reports:` (GitLab 11.2+). Each kind is a glob or a list of them, uploaded by the
 * runner beside the archive with `artifact_type` set to the kind. Forge reads `junit`; the other
 * kinds GitLab's runners know are accepted and uploaded, not read.
 */
export const REPORT_KINDS = [
  'junit',
  'codequality',
  'sast',
  'dependency_scanning',
  'container_scanning',
  'dast',
  'license_management',
  'license_scanning',
  'performance',
  'metrics',
  'dotenv',
  'cobertura',
  'terraform',
  'accessibility',
] as const;

export function reportsEntry(location: string, v: unknown): CiReports | undefined {
  if (v === undefined) return undefined;
  if (!isHash(v)) throw structural(location, 'config should be a hash');
  const unknown = unknownKeys(v, REPORT_KINDS);
  if (unknown.length > 0) throw structural(location, `config contains unknown keys: ${unknown.join(', ')}`);
  const out: Record<string, string[]> = {};
  for (const kind of REPORT_KINDS) {
    const paths = get(v, kind);
    if (paths === undefined) continue;
    if (!isString(paths) && !isArrayOfStrings(paths)) throw structural(location, `${kind} should be an array of strings or a string`);
    out[kind] = isString(paths) ? [paths] : paths;
  }
  return out;
}

/** `artifacts: exclude:`: globs left out of the archive. */
export function excludeEntry(location: string, v: unknown): string[] | undefined {
  if (v === undefined) return undefined;
  if (!isArrayOfStrings(v)) throw structural(location, 'exclude should be an array of strings');
  return v;
}
