import type { ServiceContext } from '../context';
import type { Project } from '../projects/types';
import type { IssueRow } from '../issues/types';
import { defaultBranch } from '../../git/refs';
import { repoPathOf } from '../repository/repositories';
import { latestVersions } from './versions';
import type { VersionContentCache } from './version-contents';
import type { MergeRequestRow } from './types';

/**
 * GitLab 8.12's default `issue_closing_pattern`: "Closes #1", "fixes #2, #3 and #4",
 * "Resolved: issue #5". Only references to the target project's own issues (`#n`, or its full path
 * then `#n`) are followed; 8.12 also closed issues of other projects the merging user could update.
 */
const CLOSING =
  /(?:[Cc]los(?:e[sd]?|ing)|[Ff]ix(?:e[sd]|ing)?|[Rr]esolv(?:e[sd]?|ing)):? +((?:(?:issues? +)?(?:[\w.-]+\/[\w.-]+)?#\d+(?:, *| +and +)?)+)/g;
const REFERENCE = /(?:([\w.-]+\/[\w.-]+))?#(\d+)/g;

/** The iids of the target project's issues that `text` says it closes, in order of mention. */
export function closedIssueIids(text: string, projectPath: string): number[] {
  const iids: number[] = [];
  for (const phrase of text.matchAll(CLOSING)) {
    for (const reference of phrase[1].matchAll(REFERENCE)) {
      if (reference[1] !== undefined && reference[1].toLowerCase() !== projectPath.toLowerCase()) continue;
      const iid = Number(reference[2]);
      if (Number.isSafeInteger(iid) && !iids.includes(iid)) iids.push(iid);
    }
  }
  return iids;
}

/**
 * The issues a merge request closes when merged: those its description and its commits' messages
 * say it closes, only when it targets the project's default branch (8.12's `closes_issues`).
 */
export async function closesIssues(
  ctx: ServiceContext,
  contents: VersionContentCache,
  mergeRequest: MergeRequestRow,
  project: Project,
): Promise<IssueRow[]> {
  // A project whose first branch was written without a push has no default recorded yet: git's answer stands in, as for reads.
  const defaultName = project.default_branch ?? (await defaultBranch(repoPathOf(ctx, project.id)));
  if (mergeRequest.target_branch !== defaultName) return [];
  const version = (await latestVersions(ctx.db, [mergeRequest.id])).get(mergeRequest.id);
  // Oldest first, so the issues come in the order the history mentions them.
  const commits = version ? [...(await contents.versionCommits(project.id, version))].reverse() : [];
  const text = [mergeRequest.description ?? '', ...commits.map((commit) => commit.message)].join('\n');
  const iids = closedIssueIids(text, `${project.namespace.path}/${project.path}`);
  if (iids.length === 0) return [];
  const rows = await ctx.db.selectFrom('issues').selectAll().where('project_id', '=', project.id).where('iid', 'in', iids).execute();
  return iids.flatMap((iid) => rows.filter((row) => row.iid === iid));
}
