import { isRegexpPattern, rubyRegexp } from './checks';
import type { CiJob } from './types';

/** What a pipeline is, for only/except: its ref name (no `refs/heads/`), whether it is a tag, whether a trigger made it. */
export interface RefContext {
  ref: string;
  tag: boolean;
  trigger: boolean;
  /** The project's `namespace/path`, for `pattern@namespace/path` policies. */
  projectPath?: string;
}

/**
 * §6.4: a job runs when (`only` is absent or empty, or one of its patterns matches) and
 * (`except` is absent or empty, or none of its patterns matches).
 */
export function jobMatchesRef(job: Pick<CiJob, 'only' | 'except'>, ctx: RefContext): boolean {
  const only = job.only ?? [];
  const except = job.except ?? [];
  if (only.length > 0 && !only.some((p) => patternMatches(p, ctx))) return false;
  if (except.length > 0 && except.some((p) => patternMatches(p, ctx))) return false;
  return true;
}

/** The jobs of a pipeline on this ref, in build creation order: by stage, then file order (§5.3). */
export function jobsForRef<J extends Pick<CiJob, 'only' | 'except' | 'stageIdx'>>(jobs: readonly J[], ctx: RefContext): J[] {
  // Array.prototype.sort is stable, so file order holds within a stage.
  return jobs.filter((j) => jobMatchesRef(j, ctx)).sort((a, b) => a.stageIdx - b.stageIdx);
}

function patternMatches(raw: string, ctx: RefContext): boolean {
  // `pattern@namespace/path` applies only in that project (split at the first `@`).
  const at = raw.indexOf('@');
  const pattern = at === -1 ? raw : raw.slice(0, at);
  if (at !== -1 && raw.slice(at + 1) !== ctx.projectPath) return false;
  if (pattern === 'tags' && ctx.tag) return true;
  if (pattern === 'branches' && !ctx.tag) return true;
  if (pattern === 'triggers' && ctx.trigger) return true;
  if (isRegexpPattern(pattern)) {
    // Ruby's `=~`: a match anywhere in the ref name.
    return rubyRegexp(pattern.slice(1, -1))?.test(ctx.ref) ?? false;
  }
  return pattern === ctx.ref;
}
