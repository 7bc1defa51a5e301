import type { Project } from '../projects/types';
import type { User } from '../users/users';
import type { NoteRow } from './types';
import type { Noteable } from './noteables';
import { buildNoteData } from './note-data';
import { buildIssueHookData } from '../issues/hook-data';
import { buildMergeRequestHookData, type MergeRequestHookParts } from '../merge-requests/hook-data';
import { hookTime } from '../hooks/hook-attributes';
import type { UrlBase } from '../../lib/urls';

/**
 * GitLab 8.12's `Gitlab::NoteDataBuilder.build` for a note on an issue, a merge request or a
 * snippet: the shared part, then the noteable's `hook_attrs` under `issue`, `merge_request` or
 * `snippet` (its columns, as Sidekiq wrote them). A merge request's needs its `parts` read first.
 */
export function buildNoteableNoteData(
  note: NoteRow,
  author: User,
  project: Project,
  noteable: Noteable,
  urls: UrlBase,
  parts?: MergeRequestHookParts,
) {
  if (noteable.type === 'MergeRequest') {
    const { mergeRequest } = noteable;
    const data = buildNoteData({ note, author, project, urls, noteablePath: `merge_requests/${mergeRequest.iid}` });
    const hookParts = parts ?? { source: undefined, lastCommit: undefined, assignee: undefined };
    // `hook_attrs` had neither the `url` nor the `action` of the Merge Request Hook.
    const {
      url: _url,
      action: _action,
      ...attributes
    } = buildMergeRequestHookData(mergeRequest, author, project, hookParts, urls, 'update').object_attributes;
    return { ...data, merge_request: attributes };
  }
  if (noteable.type === 'Issue') {
    const { issue } = noteable;
    const data = buildNoteData({ note, author, project, urls, noteablePath: `issues/${issue.iid}` });
    // The Issue Hook's attributes without its `url` and `action`, which `hook_attrs` did not have.
    const {
      url: _url,
      action: _action,
      ...attributes
    } = buildIssueHookData(issue, author, undefined, project, urls, 'update').object_attributes;
    return { ...data, issue: attributes };
  }
  const { snippet } = noteable;
  const data = buildNoteData({ note, author, project, urls, noteablePath: `snippets/${snippet.id}` });
  return {
    ...data,
    snippet: {
      id: snippet.id,
      title: snippet.title,
      content: snippet.content,
      author_id: snippet.author_id,
      project_id: snippet.project_id,
      created_at: hookTime(snippet.created_at),
      updated_at: hookTime(snippet.updated_at),
      file_name: snippet.file_name,
      expires_at: null,
      type: snippet.type,
      visibility_level: snippet.visibility_level,
    },
  };
}
