import type { ServiceContext } from '../context';
import type { UsersService } from '../users/users';
import type { Caller, ProjectStanding } from '../policy';
import type { IssueDetails } from '../issues/types';
import { recordNotFound } from '../../errors';
import type { DiffFile } from '../../git/diff';
import type { Commit } from '../../git/objects';
import { loadIssueDetails } from '../issues/details';
import { mayReadIssue } from '../policy-reads';
import { closesIssues } from './closes-issues';
import { loadMergeRequestDetails } from './details';
import { findMergeRequest, type MergeRequestRef } from './queries';
import { latestVersions } from './versions';
import { headPipelines, type PipelineRow } from './head-pipeline';
import type { VersionContentCache } from './version-contents';
import { chooseView, comparisonRefs, versionRefs, viewOfRefs, type AskedView, type DiffRefs } from './version-views';
import type { MergeRequestDetails, MergeRequestRow, MergeRequestVersionRow, Project } from './types';

/** A version of a merge request as the Changes tab shows it: against its base, or against an older version. */
export interface VersionView {
  /** Every version, newest first. */
  versions: MergeRequestVersionRow[];
  version: MergeRequestVersionRow;
  /** The older version it is compared with, if any. */
  start?: MergeRequestVersionRow;
  /** The refs a line comment made on this view carries. */
  refs: DiffRefs;
  diffs: DiffFile[];
}

export interface VersionContents {
  version: MergeRequestVersionRow;
  /** Newest first. */
  commits: Commit[];
  diffs: DiffFile[];
}

/**
 * What a merge request's versions show, read from the target repository (where every version's
 * head is kept): commits, changes, the versions themselves, and the issues it closes.
 */
export class MergeRequestReadsService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly users: UsersService,
    private readonly contents: VersionContentCache,
  ) {}

  async details(project: Project, caller: Caller | null, row: MergeRequestRow): Promise<MergeRequestDetails> {
    return (await loadMergeRequestDetails(this.ctx.db, this.users, [row], caller?.id ?? null, [project]))[0];
  }

  async find(project: Project, mergeRequest: MergeRequestRef): Promise<MergeRequestRow> {
    return findMergeRequest(this.ctx.db, project, mergeRequest);
  }

  /** Each merge request's head pipeline (GitLab's `MergeRequest#pipeline`), by merge request id: a list's in one query. */
  async headPipelines(list: MergeRequestDetails[]): Promise<Map<number, PipelineRow>> {
    return headPipelines(
      this.ctx.db,
      list.map((details) => ({ mergeRequest: details.mergeRequest, headSha: details.sha })),
    );
  }

  /** The latest version's commits, newest first (none without a version). */
  async commits(project: Project, ref: MergeRequestRef): Promise<Commit[]> {
    const mergeRequest = await this.find(project, ref);
    const version = (await latestVersions(this.ctx.db, [mergeRequest.id])).get(mergeRequest.id);
    return version ? this.versionCommits(project, version) : [];
  }

  /** The merge request and the latest version's diffs against the merge base (8.12's `MergeRequestChanges`). */
  async changes(
    project: Project,
    caller: Caller | null,
    ref: MergeRequestRef,
  ): Promise<{ details: MergeRequestDetails; diffs: DiffFile[] }> {
    const mergeRequest = await this.find(project, ref);
    const version = (await latestVersions(this.ctx.db, [mergeRequest.id])).get(mergeRequest.id);
    const [details, diffs] = await Promise.all([
      this.details(project, caller, mergeRequest),
      version ? this.versionDiffs(project, version) : [],
    ]);
    return { details, diffs };
  }

  /** Every version, newest first. */
  async versions(project: Project, ref: MergeRequestRef): Promise<MergeRequestVersionRow[]> {
    const mergeRequest = await this.find(project, ref);
    return this.ctx.db
      .selectFrom('merge_request_diffs')
      .selectAll()
      .where('merge_request_id', '=', mergeRequest.id)
      .orderBy('id', 'desc')
      .execute();
  }

  async version(project: Project, ref: MergeRequestRef, versionId: number): Promise<VersionContents> {
    const mergeRequest = await this.find(project, ref);
    const version = await this.ctx.db
      .selectFrom('merge_request_diffs')
      .selectAll()
      .where('id', '=', versionId)
      .where('merge_request_id', '=', mergeRequest.id)
      .executeTakeFirst();
    if (!version) throw recordNotFound();
    const [commits, diffs] = await Promise.all([this.versionCommits(project, version), this.versionDiffs(project, version)]);
    return { version, commits, diffs };
  }

  /**
   * The version the Changes tab asks for (the latest by default) against its base, or against
   * an older version's head (`start_sha`); undefined when the merge request has no version yet.
   * A version of another merge request, or a start that is no older version's head: 404.
   */
  async view(project: Project, mergeRequestId: number, asked: AskedView): Promise<VersionView | undefined> {
    const versions = await this.versions(project, mergeRequestId);
    if (versions.length === 0 && asked.diffId === undefined && asked.startSha === undefined) return undefined;
    const chosen = chooseView(versions, asked);
    if (!chosen) throw recordNotFound();
    return this.viewOf(project, versions, chosen);
  }

  /** The view whose diff a line comment's refs name (a version, or two compared), or undefined. */
  async viewAt(project: Project, mergeRequestId: number, refs: DiffRefs): Promise<VersionView | undefined> {
    const versions = await this.versions(project, mergeRequestId);
    const chosen = viewOfRefs(versions, refs);
    return chosen && this.viewOf(project, versions, chosen);
  }

  private async viewOf(
    project: Project,
    versions: MergeRequestVersionRow[],
    { version, start }: { version: MergeRequestVersionRow; start?: MergeRequestVersionRow },
  ): Promise<VersionView> {
    if (!start) return { versions, version, refs: versionRefs(version), diffs: await this.versionDiffs(project, version) };
    // The straight diff between the two heads, kept by the same cache as a version's.
    const between = { ...version, base_commit_sha: start.head_commit_sha };
    return { versions, version, start, refs: comparisonRefs(version, start), diffs: await this.versionDiffs(project, between) };
  }

  /** The issues merging would close that the caller may see, a page of them. */
  async closesIssues(
    project: Project,
    standing: ProjectStanding,
    ref: MergeRequestRef,
    page: { offset: number; limit: number },
  ): Promise<{ issues: IssueDetails[]; total: number }> {
    const mergeRequest = await this.find(project, ref);
    const visible = (await closesIssues(this.ctx, this.contents, mergeRequest, project)).filter((issue) => mayReadIssue(standing, issue));
    const rows = visible.slice(page.offset, page.offset + page.limit);
    const issues = standing.caller ? await loadIssueDetails(this.ctx.db, this.users, rows, standing.caller.id, [project]) : [];
    return { issues, total: visible.length };
  }

  private versionCommits(project: Project, version: MergeRequestVersionRow): Promise<Commit[]> {
    return this.contents.versionCommits(project.id, version);
  }

  private versionDiffs(project: Project, version: MergeRequestVersionRow): Promise<DiffFile[]> {
    return this.contents.versionDiffs(project.id, version);
  }
}
