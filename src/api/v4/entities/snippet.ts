import { Type, type Static } from '@sinclair/typebox';
import type { SnippetRow } from '../../../services/snippets/project-snippets';
import type { User } from '../../../services/users/users';
import { UserBasic, presentUserBasic } from '../../shared/entities/user';
import { Nullable, Timestamp } from '../../shared/schemas';
import type { Presenter } from '../../shared/types';
import { visibilityName } from '../../../services/policy';

/** GitLab v4's `Entities::ProjectSnippet`: no `expires_at`; the project's id and the visibility by name. */
export const ProjectSnippet = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  file_name: Type.String(),
  description: Type.Null(),
  visibility: Type.String(),
  author: Nullable(UserBasic),
  updated_at: Timestamp,
  created_at: Timestamp,
  project_id: Nullable(Type.Integer()),
  web_url: Type.String(),
});

/** `projectWebUrl` is the project's `web_url`; `authors` holds the snippets' authors, loaded in one batch. */
export function presentProjectSnippet(
  snippet: SnippetRow,
  projectWebUrl: string,
  authors: Map<number, User>,
  presenter: Presenter,
): Static<typeof ProjectSnippet> {
  const author = snippet.author_id === null ? undefined : authors.get(snippet.author_id);
  return {
    id: snippet.id,
    title: snippet.title,
    file_name: snippet.file_name,
    description: null,
    visibility: visibilityName(snippet.visibility_level),
    author: author ? presentUserBasic(author, presenter) : null,
    updated_at: snippet.updated_at,
    created_at: snippet.created_at,
    project_id: snippet.project_id,
    web_url: `${projectWebUrl}/snippets/${snippet.id}`,
  };
}
