import type { Commit } from '../../git/objects';
import type { Project } from '../projects/types';
import type { User } from '../users/users';
import type { NoteRow } from './types';
import { buildNoteData } from './note-data';
import { diffHash, lineCode, type FoundLine, type Placement } from './diff-lines';
import { commitHookAttributes } from '../hooks/hook-attributes';
import type { UrlBase } from '../../lib/urls';

export interface CommitNoteDataInput {
  note: NoteRow;
  author: User;
  project: Project;
  commit: Commit;
  /** Where an inline comment sits; undefined for a comment on the whole commit. */
  placement: (Placement & FoundLine) | undefined;
  urls: UrlBase;
}

/** GitLab 8.12's `Gitlab::NoteDataBuilder.build` for a comment on a commit: the Note Hook's payload. */
export function buildCommitNoteData({ note, author, project, commit, placement, urls }: CommitNoteDataInput) {
  const data = buildNoteData({
    note,
    author,
    project,
    urls,
    noteablePath: `commit/${commit.id}`,
    lineCode: placement ? lineCode(placement.file.newPath, placement.oldLine, placement.line) : null,
    stDiff: placement ? diffHash(placement.file) : null,
  });
  return { ...data, commit: commitHookAttributes(commit, data.project.web_url) };
}
