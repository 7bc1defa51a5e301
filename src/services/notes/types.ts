import type { Selectable } from 'kysely';
import type { NotesTable } from '../../db/schema';

/** A row of `notes`: a comment on a commit, and later on an issue, a merge request or a snippet. */
export type NoteRow = Selectable<NotesTable>;
