import { Type, type Static } from '@sinclair/typebox';
import type { CommitStatusRow } from '../../../services/ci/types';
import type { User } from '../../../services/users/users';
import { UserBasic, presentUserBasic } from './user';
import { Nullable, NullableTimestamp, Timestamp } from '../schemas';
import type { Presenter } from '../types';

/** GitLab 8.12's `Entities::CommitStatus`: an external status or a build, as a commit shows them. */
export const CommitStatus = Type.Object({
  id: Type.Integer(),
  sha: Type.String(),
  ref: Nullable(Type.String()),
  status: Type.String(),
  name: Type.String(),
  target_url: Nullable(Type.String()),
  description: Nullable(Type.String()),
  created_at: Timestamp,
  started_at: NullableTimestamp,
  finished_at: NullableTimestamp,
  allow_failure: Type.Boolean(),
  author: Nullable(UserBasic),
});

export function presentCommitStatus(row: CommitStatusRow, authors: Map<number, User>, presenter: Presenter): Static<typeof CommitStatus> {
  const author = row.user_id !== null ? authors.get(row.user_id) : undefined;
  return {
    id: row.id,
    sha: row.sha,
    ref: row.ref,
    status: row.status,
    name: row.name,
    target_url: row.target_url,
    description: row.description,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    allow_failure: row.allow_failure === 1,
    author: author ? presentUserBasic(author, presenter) : null,
  };
}
