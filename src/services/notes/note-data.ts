import type { Project } from '../projects/types';
import type { User } from '../users/users';
import type { NoteRow } from './types';
import { hookTime, projectHookAttributes, userHookAttributes } from '../hooks/hook-attributes';
import type { UrlBase } from '../../lib/urls';

export interface NoteDataInput {
  note: NoteRow;
  author: User;
  project: Project;
  urls: UrlBase;
  /** The noteable's page under the project's web URL (`commit/<sha>`, `issues/<iid>` …); the note's anchor follows. */
  noteablePath: string;
  /** Set for a note on a diff line. */
  lineCode?: string | null;
  stDiff?: unknown;
}

/**
 * The part of GitLab 8.12's `Gitlab::NoteDataBuilder.build` every kind of note shares. The caller
 * adds the noteable itself (`commit`, `issue`, `merge_request`, `snippet`) after it, as GitLab did.
 */
export function buildNoteData({ note, author, project, urls, noteablePath, lineCode = null, stDiff = null }: NoteDataInput) {
  const hookProject = projectHookAttributes(project, urls);
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
      line_code: lineCode,
      commit_id: note.commit_id,
      noteable_id: note.noteable_id,
      system: note.system === 1,
      st_diff: stDiff,
      url: `${hookProject.web_url}/${noteablePath}#note_${note.id}`,
    },
  };
}
