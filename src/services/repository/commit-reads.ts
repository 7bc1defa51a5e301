import type { ServiceContext } from '../context';
import type { Project } from '../projects/types';
import { badRequest, notFound } from '../../errors';
import { repoPathOf } from './repositories';
import type { RepositoryReadsService } from './reads';
import { resolveCommit, resolveCommitId } from '../../git/commits';
import { commitStats } from '../../git/commit-stats';
import { commitDiff, type DiffFile, type DiffStats } from '../../git/diff';
import { countLog, log } from '../../git/log';
import { branchesContaining, tagsContaining } from '../../git/containing';
import type { Commit } from '../../git/objects';
import { toInteger } from '../../lib/to-integer';
import { LIMITS } from '../../lib/limits';
import type { Db } from '../../db/index';
import { preparedPerHandle } from '../../db/prepared';

/** The commit's latest pipeline, read with every commit shown: compiled once. */
const latestPipelineOf = preparedPerHandle((db: Db, projectId: number, sha: string) =>
  db
    .selectFrom('ci_pipelines')
    .select(['id', 'sha', 'ref', 'status'])
    .where('project_id', '=', projectId)
    .where('sha', '=', sha)
    .orderBy('id', 'desc')
    .limit(1),
);

export interface CommitListOptions {
  ref?: string;
  path?: string;
  since?: string;
  until?: string;
  /** 0-based, as GitLab's commits API counts pages. */
  page?: unknown;
  perPage?: unknown;
}

export interface CommitDetail {
  commit: Commit;
  stats: DiffStats;
  /** The status of the project's latest pipeline for this commit, or null when it has none. */
  status: string | null;
  /** That pipeline. */
  pipeline: { id: number; sha: string; ref: string | null; status: string } | null;
}

/** A page of history counted from its first commit (GitLab 9+), with the number of commits in all. */
export interface CommitPageOptions {
  ref?: string;
  path?: string;
  since?: string;
  until?: string;
  /** Every branch's and tag's history. */
  all?: boolean;
  offset: number;
  limit: number;
}

export interface CommitRef {
  type: 'branch' | 'tag';
  name: string;
}

const DEFAULT_PER_PAGE = 20;

/**
 * Ruby's `Time.xmlschema`, which GitLab used: a date, optionally a time, optionally fractions and
 * a zone (no zone means the server's time, UTC here).
 */
const XMLSCHEMA = /^\s*(-?\d+)-(\d\d)-(\d\d)(?:T(\d\d):(\d\d):(\d\d)(\.\d+)?(Z|[+-]\d\d(?::?\d\d)?)?)?\s*$/i;

/** A `since`/`until` value; blank means none; anything else unreadable is GitLab's 400. */
export function parseTimestamp(name: string, value: string | undefined): Date | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const match = XMLSCHEMA.exec(value);
  const invalid = () => badRequest(`"${name}" must be a timestamp in ISO 8601 format: YYYY-MM-DDTHH:MM:SSZ`);
  if (!match) throw invalid();
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone = 'Z'] = match;
  const parts = [Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)] as const;
  const utc = new Date(Date.UTC(...parts));
  utc.setUTCFullYear(parts[0]);
  const roundTrips =
    utc.getUTCFullYear() === parts[0] &&
    utc.getUTCMonth() === parts[1] &&
    utc.getUTCDate() === parts[2] &&
    utc.getUTCHours() === parts[3] &&
    utc.getUTCMinutes() === parts[4] &&
    utc.getUTCSeconds() === parts[5];
  if (!roundTrips) throw invalid();
  const offset = /^[+-]/.test(zone) ? zoneMinutes(zone) : 0;
  const millis = fraction === '' ? 0 : Math.floor(Number(`0${fraction}`) * 1000);
  return new Date(utc.getTime() + millis - offset * 60_000);
}

function zoneMinutes(zone: string): number {
  const digits = zone.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0');
  return zone.startsWith('-') ? -minutes : minutes;
}

/** History, single commits and their diffs. */
export class CommitReadsService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly reads: RepositoryReadsService,
  ) {}

  /**
   * Newest first from a ref (default branch by default), `page` counted from 0, no page headers;
   * an unknown ref or an empty repository has no commits.
   */
  async list(project: Project, options: CommitListOptions): Promise<Commit[]> {
    const since = parseTimestamp('since', options.since);
    const until = parseTimestamp('until', options.until);
    // GitLab passed a zero or negative page size on to git and failed (500); the default is meant.
    const given = toInteger(options.perPage) ?? 0;
    // Both clamped as every other list is (LIMITS), so that `--skip` stays an integer git reads.
    const perPage = given > 0 ? Math.min(given, LIMITS.perPage) : DEFAULT_PER_PAGE;
    const page = Math.min(Math.max(0, toInteger(options.page) ?? 0), LIMITS.page);
    const ref = await this.reads.refOrDefault(project, options.ref);
    return log(this.ctx.git, repoPathOf(this.ctx, project.id), {
      ref,
      path: options.path,
      since,
      until,
      offset: page * perPage,
      limit: perPage,
    });
  }

  async page(project: Project, options: CommitPageOptions): Promise<{ commits: Commit[]; total: number }> {
    const since = parseTimestamp('since', options.since);
    const until = parseTimestamp('until', options.until);
    const repoPath = repoPathOf(this.ctx, project.id);
    const named = await this.reads.refOrDefault(project, options.ref);
    // The name is read once: the page and the count then find their answers kept under its commit.
    const ref = options.all ? named : await resolveCommitId(this.ctx.git, repoPath, named);
    if (ref === undefined) return { commits: [], total: 0 };
    const query = { ref, path: options.path, since, until, all: options.all };
    const [commits, total] = await Promise.all([
      log(this.ctx.git, repoPath, { ...query, offset: options.offset, limit: options.limit }),
      countLog(this.ctx.git, repoPath, query),
    ]);
    return { commits, total };
  }

  /** The branches and tags whose history holds the commit, branches first, each by name. */
  async refsContaining(project: Project, sha: string, type: 'branch' | 'tag' | 'all'): Promise<CommitRef[]> {
    const commit = await this.find(project, sha);
    const repoPath = repoPathOf(this.ctx, project.id);
    const [branches, tags] = await Promise.all([
      type === 'tag' ? [] : branchesContaining(repoPath, commit.id),
      type === 'branch' ? [] : tagsContaining(repoPath, commit.id),
    ]);
    return [...branches.map((name) => ({ type: 'branch' as const, name })), ...tags.map((name) => ({ type: 'tag' as const, name }))];
  }

  /** The commit a sha, branch or tag names, or `404 Commit Not Found`. */
  async find(project: Project, sha: string): Promise<Commit> {
    const commit = await resolveCommit(this.ctx.git, repoPathOf(this.ctx, project.id), sha);
    if (!commit) throw notFound('Commit');
    return commit;
  }

  async detail(project: Project, sha: string): Promise<CommitDetail> {
    const commit = await this.find(project, sha);
    const [stats, pipeline] = await Promise.all([
      commitStats(this.ctx.git, repoPathOf(this.ctx, project.id), commit),
      latestPipelineOf(this.ctx.db, project.id, commit.id).then((rows) => rows[0]),
    ]);
    return { commit, stats, status: pipeline?.status ?? null, pipeline: pipeline ?? null };
  }

  /** What the commit changed against its first parent. */
  async diff(project: Project, sha: string): Promise<DiffFile[]> {
    const commit = await this.find(project, sha);
    return (await commitDiff(this.ctx.git, repoPathOf(this.ctx, project.id), commit)).files;
  }
}
