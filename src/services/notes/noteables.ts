import type { Db } from '../../db/index';
import { preparedPerHandle } from '../../db/prepared';
import type { IssueRow } from '../issues/types';
import type { Project } from '../projects/types';
import type { SnippetRow } from '../snippets/project-snippets';
import type { MergeRequestRow } from '../merge-requests/types';
import { mayReadIssue, mayReadMergeRequest, mayReadSnippet } from '../policy-reads';
import type { ProjectStanding } from '../policy';
import { recordNotFound } from '../../errors';

/** The path segment of a noteable kind (`/projects/:id/issues/:noteable_id/notes`). */
export type NoteableKind = 'issues' | 'snippets' | 'merge_requests';

/** What notes hang on: an issue, a project snippet or a merge request of the project, and whether the caller may read it. */
export type Noteable =
  | { type: 'Issue'; issue: IssueRow; snippet?: undefined; mergeRequest?: undefined; id: number; readable: boolean }
  | { type: 'Snippet'; snippet: SnippetRow; issue?: undefined; mergeRequest?: undefined; id: number; readable: boolean }
  | { type: 'MergeRequest'; mergeRequest: MergeRequestRow; issue?: undefined; snippet?: undefined; id: number; readable: boolean };

/** Who wrote the noteable: they may not vote on it. */
export const noteableAuthorId = (noteable: Noteable): number | null =>
  noteable.type === 'Issue'
    ? noteable.issue.author_id
    : noteable.type === 'Snippet'
      ? noteable.snippet.author_id
      : noteable.mergeRequest.author_id;

// Every notes and award emoji route looks its noteable up: built and compiled once.
const queries = {
  issue: preparedPerHandle((db: Db, id: number, projectId: number) =>
    db.selectFrom('issues').selectAll().where('id', '=', id).where('project_id', '=', projectId),
  ),
  mergeRequest: preparedPerHandle((db: Db, id: number, projectId: number) =>
    db.selectFrom('merge_requests').selectAll().where('id', '=', id).where('target_project_id', '=', projectId),
  ),
  snippet: preparedPerHandle((db: Db, id: number, projectId: number) =>
    db.selectFrom('snippets').selectAll().where('id', '=', id).where('project_id', '=', projectId),
  ),
  // v4 names issues and merge requests by their number in the project.
  issueByIid: preparedPerHandle((db: Db, iid: number, projectId: number) =>
    db.selectFrom('issues').selectAll().where('project_id', '=', projectId).where('iid', '=', iid),
  ),
  mergeRequestByIid: preparedPerHandle((db: Db, iid: number, projectId: number) =>
    db.selectFrom('merge_requests').selectAll().where('target_project_id', '=', projectId).where('iid', '=', iid),
  ),
};

/** A noteable by its global id, or (issues and merge requests, as v4 names them) by its `iid` in the project. */
export type NoteableRef = number | { iid: number };

/**
 * The project's issue, snippet or merge request (the project its target) by its id, as 8.12 found it (`user_project.issues.find`): `404 Not
 * found` when the project has none of that id. Whether the caller may read it (`read_issue` with
 * confidential issues, the snippet's visibility) is for the caller of this to act on, as 8.12
 * answered an unreadable noteable with its own message.
 */
export async function findNoteable(
  db: Db,
  project: Project,
  standing: ProjectStanding,
  kind: NoteableKind,
  ref: NoteableRef,
): Promise<Noteable> {
  const byIid = typeof ref === 'object';
  if (kind === 'issues') {
    const [issue] = byIid ? await queries.issueByIid(db, ref.iid, project.id) : await queries.issue(db, ref, project.id);
    if (!issue) throw recordNotFound();
    return { type: 'Issue', issue, id: issue.id, readable: mayReadIssue(standing, issue) };
  }
  if (kind === 'merge_requests') {
    const [mergeRequest] = byIid
      ? await queries.mergeRequestByIid(db, ref.iid, project.id)
      : await queries.mergeRequest(db, ref, project.id);
    if (!mergeRequest) throw recordNotFound();
    return { type: 'MergeRequest', mergeRequest, id: mergeRequest.id, readable: mayReadMergeRequest(standing) };
  }
  // Snippets have no iid: they are named by id in every version.
  if (byIid) throw recordNotFound();
  const [snippet] = await queries.snippet(db, ref, project.id);
  if (!snippet) throw recordNotFound();
  return { type: 'Snippet', snippet, id: snippet.id, readable: mayReadSnippet(standing, snippet) };
}
