import { Type, type Static } from '@sinclair/typebox';
import type { NoteRow } from '../../../services/notes/types';
import type { User } from '../../../services/users/users';
import { UserBasic, presentUserBasic } from '../../shared/entities/user';
import { Nullable, Timestamp, type Presenter } from './common';

/**
 * GitLab 8.12's `Entities::Note`: its `upvote?` and `downvote?` were spelled with their question
 * marks, while its documentation (and clients written from it) read `upvote` and `downvote`; a
 * note carries all four, always false (votes are award emoji).
 */
export const Note = Type.Object({
  id: Type.Integer(),
  body: Type.String(),
  attachment: Nullable(Type.String()),
  author: Nullable(UserBasic),
  created_at: Timestamp,
  updated_at: Timestamp,
  system: Type.Boolean(),
  noteable_id: Nullable(Type.Integer()),
  noteable_type: Type.String(),
  'upvote?': Type.Boolean(),
  'downvote?': Type.Boolean(),
  upvote: Type.Boolean(),
  downvote: Type.Boolean(),
});

export function presentNote(note: NoteRow, author: User | undefined, presenter: Presenter): Static<typeof Note> {
  return {
    id: note.id,
    body: note.note,
    attachment: note.attachment,
    author: author ? presentUserBasic(author, presenter) : null,
    created_at: note.created_at,
    updated_at: note.updated_at,
    system: note.system === 1,
    noteable_id: note.noteable_id,
    noteable_type: note.noteable_type,
    'upvote?': false,
    'downvote?': false,
    upvote: false,
    downvote: false,
  };
}
