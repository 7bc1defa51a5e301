import { Type, type Static } from '@sinclair/typebox';
import type { EventRow } from '../../../services/events/events';
import type { NoteRow } from '../../../services/notes/types';
import type { User } from '../../../services/users/users';
import { EventBase, presentEventBase } from '../../shared/entities/event';
import { Note, presentNote } from './note';
import type { Presenter } from './common';

const { author, author_username, ...head } = EventBase.properties;

export const Event = Type.Object({
  ...head,
  /** Only on comment events. */
  note: Type.Optional(Note),
  author,
  author_username,
});

export function presentEvent(
  event: EventRow,
  authors: Map<number, User>,
  notes: Map<number, NoteRow>,
  presenter: Presenter,
): Static<typeof Event> {
  const note = event.target_type === 'Note' && event.target_id !== null ? notes.get(event.target_id) : undefined;
  return Object.assign(presentEventBase(event, authors, presenter), {
    note: note ? presentNote(note, note.author_id !== null ? authors.get(note.author_id) : undefined, presenter) : undefined,
  });
}
