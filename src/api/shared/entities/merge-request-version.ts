import { Type, type Static } from '@sinclair/typebox';
import type { MergeRequestVersionRow } from '../../../services/merge-requests/types';
import { Nullable, Timestamp } from '../schemas';

/** `Entities::MergeRequestDiff`: one version of a merge request, alike in v3 and v4 (each door adds its own commits to the full one). */
export const MergeRequestDiff = Type.Object({
  id: Type.Integer(),
  head_commit_sha: Nullable(Type.String()),
  base_commit_sha: Nullable(Type.String()),
  start_commit_sha: Nullable(Type.String()),
  created_at: Timestamp,
  merge_request_id: Type.Integer(),
  state: Type.String(),
  real_size: Nullable(Type.String()),
});

export function presentMergeRequestDiff(version: MergeRequestVersionRow): Static<typeof MergeRequestDiff> {
  return {
    id: version.id,
    head_commit_sha: version.head_commit_sha,
    base_commit_sha: version.base_commit_sha,
    start_commit_sha: version.start_commit_sha,
    created_at: version.created_at,
    merge_request_id: version.merge_request_id,
    state: version.state,
    real_size: version.real_size,
  };
}
