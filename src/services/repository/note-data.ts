import crypto from 'node:crypto';
import type { DiffFile } from '../../git/diff';
import type { Commit } from '../../git/objects';
import type { Project } from '../projects/types';
import type { User } from '../users/users';
import type { CommitNote } from './commit-comments';
import { commitHookAttributes, hookTime, projectHookAttributes, userHookAttributes } from '../hooks/hook-attributes';

export interface CommitNoteDataInput {
  note: CommitNote;
  author: User;
  project: Project;
  commit: Commit;
  /** Where an inline comment sits; undefined for a comment on the whole commit. */
  placement: { line: number; oldLine: number; file: DiffFile } | undefined;
  externalUrl: string;
}

/** GitLab 8.12's `Gitlab::NoteDataBuilder.build` for a comment on a commit: the Note Hook's payload. */
export function buildCommitNoteData({ note, author, project, commit, placement, externalUrl }: CommitNoteDataInput) {
  const hookProject = projectHookAttributes(project, externalUrl);
  return {
    object_kind: 'note',
    user: userHookAttributes(author),
    project_id: project.id,
    project: hookProject,
    repository: { name: hookProject.name, url: hookProject.url, description: hookProject.description, homepage: hookProject.homepage },
    object_attributes: {
      id: note.id,
      note: note.note,
      noteable_type: note.noteable_type,
      author_id: note.author_id,
      created_at: hookTime(note.created_at),
      updated_at: hookTime(note.updated_at),
      project_id: note.project_id,
      attachment: note.attachment,
      line_code: placement ? lineCode(placement.file.newPath, placement.oldLine, placement.line) : null,
      commit_id: note.commit_id,
      noteable_id: note.noteable_id,
      system: note.system === 1,
      st_diff: placement ? diffHash(placement.file) : null,
      url: `${hookProject.web_url}/commit/${commit.id}#note_${note.id}`,
    },
    commit: commitHookAttributes(commit, hookProject.web_url),
  };
}

/** GitLab's `Gitlab::Diff::LineCode.generate`: the file's SHA-1, the old line, the new line. */
const lineCode = (path: string, oldLine: number, newLine: number): string =>
  `${crypto.hash('sha1', path, 'hex')}_${oldLine}_${newLine}`;

/** `Gitlab::Git::Diff#to_hash`, which an inline (legacy diff) note keeps as `st_diff`. */
const diffHash = (file: DiffFile) => ({
  diff: file.diff,
  new_path: file.newPath,
  old_path: file.oldPath,
  a_mode: file.aMode,
  b_mode: file.bMode,
  new_file: file.newFile,
  renamed_file: file.renamedFile,
  deleted_file: file.deletedFile,
});
