import { Type, type Static } from '@sinclair/typebox';
import type { EventRow } from '../../../services/events/events';
import type { NoteRow } from '../../../services/notes/types';
import type { User } from '../../../services/users/users';
import { UserBasic, presentUserBasic } from '../../shared/entities/user';
import { Note, presentNote } from './note';
import { Nullable, Timestamp, type Presenter } from './common';

export const Event = Type.Object({
  title: Type.Null(),
  project_id: Nullable(Type.Integer()),
  action_name: Type.String(),
  target_id: Nullable(Type.Integer()),
  target_type: Nullable(Type.String()),
  author_id: Nullable(Type.Integer()),
  data: Nullable(Type.Object({}, { additionalProperties: true })),
  target_title: Nullable(Type.String()),
  created_at: Timestamp,
  /** Only on comment events. */
  note: Type.Optional(Note),
  author: Type.Optional(UserBasic),
  author_username: Nullable(Type.String()),
});

export function presentEvent(
  event: EventRow,
  authors: Map<number, User>,
  notes: Map<number, NoteRow>,
  presenter: Presenter,
): Static<typeof Event> {
  const author = event.author_id !== null ? authors.get(event.author_id) : undefined;
  const note = event.target_type === 'Note' && event.target_id !== null ? notes.get(event.target_id) : undefined;
  return {
    title: null,
    project_id: event.project_id,
    action_name: event.action,
    target_id: event.target_id,
    target_type: event.target_type,
    author_id: event.author_id,
    data: event.data === null ? null : JSON.parse(event.data),
    target_title: event.target_title,
    created_at: event.created_at,
    note: note ? presentNote(note, note.author_id !== null ? authors.get(note.author_id) : undefined, presenter) : undefined,
    author: author ? presentUserBasic(author, presenter) : undefined,
    author_username: author?.username ?? null,
  };
}
