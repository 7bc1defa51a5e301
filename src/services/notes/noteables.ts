import type { Db } from '../../db/index';
import type { IssueRow } from '../issues/types';
import type { Project } from '../projects/types';
import type { SnippetRow } from '../snippets/project-snippets';
import { visibleLevels } from '../snippets/project-snippets';
import { mayReadIssue } from '../issues/visibility';
import { can, type ProjectStanding } from '../policy';
import { recordNotFound } from '../../errors';

/** The path segment of a noteable kind (`/projects/:id/issues/:noteable_id/notes`). */
export type NoteableKind = 'issues' | 'snippets';

/** What notes hang on: an issue or a project snippet of the project, and whether the caller may read it. */
export type Noteable =
  | { type: 'Issue'; issue: IssueRow; snippet?: undefined; id: number; readable: boolean }
  | { type: 'Snippet'; snippet: SnippetRow; issue?: undefined; id: number; readable: boolean };

/**
 * The project's issue or snippet by its id, as 8.12 found it (`user_project.issues.find`): `404 Not
 * found` when the project has none of that id. Whether the caller may read it (`read_issue` with
 * confidential issues, the snippet's visibility) is for the caller of this to act on, as 8.12
 * answered an unreadable noteable with its own message.
 */
export async function findNoteable(db: Db, project: Project, standing: ProjectStanding, kind: NoteableKind, id: number): Promise<Noteable> {
  if (kind === 'issues') {
    const issue = await db.selectFrom('issues').selectAll().where('id', '=', id).where('project_id', '=', project.id).executeTakeFirst();
    if (!issue) throw recordNotFound();
    return { type: 'Issue', issue, id: issue.id, readable: can(standing, 'read_issue') && mayReadIssue(standing, issue) };
  }
  const snippet = await db.selectFrom('snippets').selectAll().where('id', '=', id).where('project_id', '=', project.id).executeTakeFirst();
  if (!snippet) throw recordNotFound();
  const readable = can(standing, 'read_project_snippet') && visibleLevels(standing).includes(snippet.visibility_level);
  return { type: 'Snippet', snippet, id: snippet.id, readable };
}
