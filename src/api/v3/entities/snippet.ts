import { Type, type Static } from '@sinclair/typebox';
import type { SnippetRow } from '../../../services/snippets/project-snippets';
import type { User as UserRow } from '../../../services/users/users';
import { Nullable, Timestamp, type Presenter } from './common';
import { UserBasic, presentUserBasic } from '../../shared/entities/user';

/**
 * GitLab 8.12's `Entities::ProjectSnippet`, in its order. `expires_at` is always null (project
 * snippets never expire). The author is null once their account is gone.
 */
export const ProjectSnippet = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  file_name: Type.String(),
  author: Nullable(UserBasic),
  updated_at: Timestamp,
  created_at: Timestamp,
  expires_at: Type.Null(),
  web_url: Type.String(),
});

/** The removed snippet as 8.12 answered a DELETE: the raw record, every column in the table's order. */
export const SnippetRecord = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  content: Type.String(),
  author_id: Nullable(Type.Integer()),
  project_id: Nullable(Type.Integer()),
  created_at: Timestamp,
  updated_at: Timestamp,
  file_name: Type.String(),
  expires_at: Type.Null(),
  type: Type.String(),
  visibility_level: Type.Integer(),
});

/** `projectWebUrl` is the project's `web_url`; `authors` holds the snippets' authors, loaded in one batch. */
export function presentProjectSnippet(
  snippet: SnippetRow,
  projectWebUrl: string,
  authors: Map<number, UserRow>,
  presenter: Presenter,
): Static<typeof ProjectSnippet> {
  const author = snippet.author_id === null ? undefined : authors.get(snippet.author_id);
  return {
    id: snippet.id,
    title: snippet.title,
    file_name: snippet.file_name,
    author: author ? presentUserBasic(author, presenter) : null,
    updated_at: snippet.updated_at,
    created_at: snippet.created_at,
    expires_at: null,
    web_url: `${projectWebUrl}/snippets/${snippet.id}`,
  };
}

export function presentSnippetRecord(snippet: SnippetRow): Static<typeof SnippetRecord> {
  return {
    id: snippet.id,
    title: snippet.title,
    content: snippet.content,
    author_id: snippet.author_id,
    project_id: snippet.project_id,
    created_at: snippet.created_at,
    updated_at: snippet.updated_at,
    file_name: snippet.file_name,
    expires_at: null,
    type: snippet.type,
    visibility_level: snippet.visibility_level,
  };
}
