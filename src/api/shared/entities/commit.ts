import { Type, type Static } from '@sinclair/typebox';
import type { Contributor as ContributorRecord } from '../../../git/contributors';
import type { DiffFile, DiffStats } from '../../../git/diff';
import type { NoteRow } from '../../../services/notes/types';
import type { User } from '../../../services/users/users';
import { Nullable, Timestamp } from '../schemas';
import type { Presenter } from '../types';
import { UserBasic, presentUserBasic } from './user';

/** A git time in the commit's own offset (`2012-09-20T09:06:12.000+03:00`). */
export const GitTime = Type.String({ format: 'date-time' });

export const RepoCommitStats = Type.Object({ additions: Type.Integer(), deletions: Type.Integer(), total: Type.Integer() });

export const RepoDiff = Type.Object({
  old_path: Type.String(),
  new_path: Type.String(),
  a_mode: Nullable(Type.String()),
  b_mode: Nullable(Type.String()),
  diff: Type.String(),
  new_file: Type.Boolean(),
  renamed_file: Type.Boolean(),
  deleted_file: Type.Boolean(),
});

export const Contributor = Type.Object({
  name: Type.String(),
  email: Type.String(),
  commits: Type.Integer(),
  additions: Type.Integer(),
  deletions: Type.Integer(),
});

/** A comment on a commit, with its author as UserBasic. */
export const CommitNote = Type.Object({
  note: Type.String(),
  path: Nullable(Type.String()),
  line: Nullable(Type.Integer()),
  line_type: Nullable(Type.String()),
  author: Nullable(UserBasic),
  created_at: Timestamp,
});

export const presentStats = (stats: DiffStats): Static<typeof RepoCommitStats> => ({
  additions: stats.additions,
  deletions: stats.deletions,
  total: stats.total,
});

export function presentRepoDiff(file: DiffFile): Static<typeof RepoDiff> {
  return {
    old_path: file.oldPath,
    new_path: file.newPath,
    a_mode: file.aMode,
    b_mode: file.bMode,
    diff: file.diff,
    new_file: file.newFile,
    renamed_file: file.renamedFile,
    deleted_file: file.deletedFile,
  };
}

export function presentContributor(contributor: ContributorRecord): Static<typeof Contributor> {
  return {
    name: contributor.name,
    email: contributor.email,
    commits: contributor.commits,
    additions: contributor.additions,
    deletions: contributor.deletions,
  };
}

export function presentCommitNote(note: NoteRow, author: User | undefined, presenter: Presenter): Static<typeof CommitNote> {
  return {
    note: note.note,
    path: note.path,
    line: note.line,
    line_type: note.line_type,
    created_at: note.created_at,
    author: author ? presentUserBasic(author, presenter) : null,
  };
}
