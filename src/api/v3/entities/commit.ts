import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { Commit } from '../../../git/objects';
import type { Contributor as ContributorRecord } from '../../../git/contributors';
import type { DiffFile, DiffStats } from '../../../git/diff';
import type { CommitDetail } from '../../../services/repository/commit-reads';
import type { NoteRow } from '../../../services/notes/types';
import type { User } from '../../../services/users/users';
import { Nullable, Timestamp, type Presenter } from './common';
import { UserBasic, presentUserBasic } from '../../shared/entities/user';

/** A git time in the commit's own offset (`2012-09-20T09:06:12.000+03:00`). */
const GitTime = Type.String({ format: 'date-time' });

export const RepoCommit = Type.Object({
  id: Type.String(),
  short_id: Type.String(),
  title: Type.String(),
  author_name: Type.String(),
  author_email: Type.String(),
  created_at: GitTime,
  message: Type.String(),
});

/** The spec's commit list item carries `allow_failure` as well (always false: a commit never fails). */
export const RepoCommitListItem = Type.Object({ ...RepoCommit.properties, allow_failure: Type.Boolean() });

export const RepoCommitStats = Type.Object({ additions: Type.Integer(), deletions: Type.Integer(), total: Type.Integer() });

export const RepoCommitDetail = Type.Object({
  ...RepoCommit.properties,
  parent_ids: Type.Array(Type.String()),
  committed_date: GitTime,
  authored_date: GitTime,
  stats: RepoCommitStats,
  status: Nullable(Type.String()),
});

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

/** The author of a comment in a list: the spec's fields (e-mail and creation time) and GitLab's UserBasic ones. */
export const CommitNoteAuthor = Type.Object({
  ...UserBasic.properties,
  email: Type.String(),
  created_at: Timestamp,
});

const commitNote = <A extends TSchema>(author: A) =>
  Type.Object({
    note: Type.String(),
    path: Nullable(Type.String()),
    line: Nullable(Type.Integer()),
    line_type: Nullable(Type.String()),
    author: Nullable(author),
    created_at: Timestamp,
  });

/** The answer to posting a comment. */
export const CommitNote = commitNote(UserBasic);

/** A comment in a commit's list. */
export const CommitNoteListItem = commitNote(CommitNoteAuthor);

export function presentRepoCommit(commit: Commit): Static<typeof RepoCommit> {
  return {
    id: commit.id,
    short_id: commit.shortId,
    title: commit.title,
    author_name: commit.author.name,
    author_email: commit.author.email,
    created_at: commit.committer.date,
    message: commit.message,
  };
}

export function presentRepoCommitListItem(commit: Commit): Static<typeof RepoCommitListItem> {
  return Object.assign(presentRepoCommit(commit), { allow_failure: false });
}

export function presentRepoCommitDetail({ commit, stats, status }: CommitDetail): Static<typeof RepoCommitDetail> {
  return Object.assign(presentRepoCommit(commit), {
    parent_ids: commit.parentIds,
    committed_date: commit.committer.date,
    authored_date: commit.author.date,
    stats: presentStats(stats),
    status,
  });
}

const presentStats = (stats: DiffStats): Static<typeof RepoCommitStats> => ({
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

export function presentCommitNoteListItem(
  note: NoteRow,
  author: User | undefined,
  presenter: Presenter,
): Static<typeof CommitNoteListItem> {
  return {
    note: note.note,
    path: note.path,
    line: note.line,
    line_type: note.line_type,
    created_at: note.created_at,
    author: author ? Object.assign(presentUserBasic(author, presenter), { email: author.email, created_at: author.created_at }) : null,
  };
}
