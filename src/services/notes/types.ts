import type { Selectable } from 'kysely';
import type { NotesTable } from '../../db/schema';

/** A row of `notes`: a comment on a commit, and later on an issue, a merge request or a snippet. */
export type NoteRow = Selectable<NotesTable>;

/** What a note is on, as GitLab 8.12 names it in `noteable_type`. */
export type NoteableType = 'Commit' | 'Issue' | 'MergeRequest' | 'Snippet';
