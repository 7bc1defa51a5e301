import { Type, type Static } from '@sinclair/typebox';
import type { NoteRow } from '../../../services/notes/types';
import type { User } from '../../../services/users/users';
import { UserBasic, presentUserBasic } from '../../shared/entities/user';
import { Nullable, Timestamp } from '../../shared/schemas';
import type { Presenter } from '../../shared/types';
import { parsePosition } from '../../../services/notes/diff-positions';

/** GitLab 10's `Gitlab::Diff::Position` of a comment on a text line of a merge request's diff. */
export const Position = Type.Object({
  base_sha: Type.String(),
  start_sha: Type.String(),
  head_sha: Type.String(),
  old_path: Type.String(),
  new_path: Type.String(),
  position_type: Type.String(),
  old_line: Nullable(Type.Integer()),
  new_line: Nullable(Type.Integer()),
});

/** GitLab v4's `Entities::Note`: no votes (those are award emoji), the noteable's `iid` beside its id. */
export const Note = Type.Object({
  id: Type.Integer(),
  /** `DiffNote` for a comment on a diff line, else null. */
  type: Nullable(Type.String()),
  body: Type.String(),
  attachment: Nullable(Type.String()),
  author: Nullable(UserBasic),
  created_at: Timestamp,
  updated_at: Timestamp,
  system: Type.Boolean(),
  noteable_id: Nullable(Type.Integer()),
  noteable_type: Type.String(),
  noteable_iid: Nullable(Type.Integer()),
  resolvable: Type.Boolean(),
  /** A DiffNote's alone (GitLab 10+). */
  position: Type.Optional(Position),
  resolved: Type.Optional(Type.Boolean()),
  resolved_by: Type.Optional(Nullable(UserBasic)),
});

/**
 * `noteableIid` is the or merge request's number (null for a snippet's note); `users`
 * holds whoever resolved a DiffNote's discussion.
 */
export function presentNote(
  note: NoteRow,
  author: User | undefined,
  noteableIid: number | null,
  presenter: Presenter,
  users?: Map<number, User>,
): Static<typeof Note> {
  const position = note.type === 'DiffNote' ? parsePosition(note.position) : undefined;
  const resolver = note.resolved_by_id === null ? undefined : users?.get(note.resolved_by_id);
  return {
    id: note.id,
    type: note.type,
    body: note.note,
    attachment: note.attachment,
    author: author ? presentUserBasic(author, presenter) : null,
    created_at: note.created_at,
    updated_at: note.updated_at,
    system: note.system === 1,
    noteable_id: note.noteable_id,
    noteable_type: note.noteable_type,
    noteable_iid: noteableIid,
    resolvable: position !== undefined,
    ...(position && {
      position,
      resolved: note.resolved_at !== null,
      resolved_by: resolver ? presentUserBasic(resolver, presenter) : null,
    }),
  };
}
