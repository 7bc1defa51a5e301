import { Type, type Static } from '@sinclair/typebox';
import type { NoteRow } from '../../../services/notes/types';
import type { User } from '../../../services/users/users';
import { UserBasic, presentUserBasic } from '../../shared/entities/user';
import { Nullable, Timestamp } from '../../shared/schemas';
import type { Presenter } from '../../shared/types';

/** GitLab v4's `Entities::Note`: no votes (those are award emoji), the noteable's `iid` beside its id. */
export const Note = Type.Object({
  id: Type.Integer(),
  type: Type.Null(),
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
});

/** `noteableIid` is the or merge request's number (null for a snippet's note). */
export function presentNote(
  note: NoteRow,
  author: User | undefined,
  noteableIid: number | null,
  presenter: Presenter,
): Static<typeof Note> {
  return {
    id: note.id,
    type: null,
    body: note.note,
    attachment: note.attachment,
    author: author ? presentUserBasic(author, presenter) : null,
    created_at: note.created_at,
    updated_at: note.updated_at,
    system: note.system === 1,
    noteable_id: note.noteable_id,
    noteable_type: note.noteable_type,
    noteable_iid: noteableIid,
    resolvable: false,
  };
}
