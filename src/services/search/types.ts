import type { IssueDetails } from '../issues/types';
import type { MergeRequestDetails } from '../merge-requests/types';
import type { Project } from '../projects/types';
import type { Caller, ProjectStanding } from '../policy';

/** What can be searched (GitLab 8.12's `scope`): projects, issues, merge requests and code (`blobs`). */
export const SEARCH_SCOPES = ['projects', 'issues', 'merge_requests', 'blobs'] as const;
export type SearchScope = (typeof SEARCH_SCOPES)[number];

/** Who searches, and where: every project they read, or one project they read (GitLab's `project_id`). */
export interface SearchWhere {
  caller: Caller | null;
  within?: { project: Project; standing: ProjectStanding };
}

export interface SearchPage {
  offset: number;
  limit: number;
}

/** A line of a file on a project's default branch holding the searched text. */
export interface CodeMatch {
  project: Project;
  /** The default branch's name, as the link to the file names it. */
  ref: string;
  path: string;
  line: number;
  text: string;
}

export type SearchResults =
  | { scope: 'projects'; projects: Project[]; total: number }
  | { scope: 'issues'; issues: IssueDetails[]; total: number }
  | { scope: 'merge_requests'; mergeRequests: MergeRequestDetails[]; total: number }
  /** `truncated`: the search stopped at its limits (matches, projects, time), so `total` counts what it found. */
  | { scope: 'blobs'; matches: CodeMatch[]; total: number; truncated: boolean };
