import { Type, type Static } from '@sinclair/typebox';
import type { Commit } from '../../../git/objects';
import type { CommitDetail } from '../../../services/repository/commit-reads';
import type { NoteRow } from '../../../services/notes/types';
import type { User } from '../../../services/users/users';
import { Nullable, Timestamp, type Presenter } from './common';
import { UserBasic, presentUserBasic } from '../../shared/entities/user';
import { CommitNote, GitTime, RepoCommitStats, presentStats } from '../../shared/entities/commit';

export {
  CommitNote,
  Contributor,
  RepoDiff,
  presentCommitNote,
  presentContributor,
  presentRepoDiff,
} from '../../shared/entities/commit';

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

export const RepoCommitDetail = Type.Object({
  ...RepoCommit.properties,
  parent_ids: Type.Array(Type.String()),
  committed_date: GitTime,
  authored_date: GitTime,
  stats: RepoCommitStats,
  status: Nullable(Type.String()),
});

/** The author of a comment in a list: the spec's fields (e-mail and creation time) and GitLab's UserBasic ones. */
export const CommitNoteAuthor = Type.Object({
  ...UserBasic.properties,
  email: Type.String(),
  created_at: Timestamp,
});

/** A comment in a commit's list. */
export const CommitNoteListItem = Type.Object({ ...CommitNote.properties, author: Nullable(CommitNoteAuthor) });

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
