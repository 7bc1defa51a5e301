import type { Services } from '../services/index';
import type { NoteRow } from '../services/notes/types';
import type { Project } from '../services/projects/types';
import type { ProjectStanding } from '../services/policy';
import { renderMarkdown } from './markdown';
import { pageReferences } from './references';
import type { ShownNote } from './pages/issuable-parts';

/**
 * Notes as a page draws them: their authors, and each comment rendered with the page's
 * references (the description's too, when given, so that both share one look-up).
 */
export async function renderNotes(
  services: Services,
  project: Project,
  standing: ProjectStanding,
  notes: NoteRow[],
  description: string | null = null,
): Promise<{ notes: ShownNote[]; description: ReturnType<typeof renderMarkdown> }> {
  const authorIds = [...new Set(notes.flatMap((note) => (note.author_id === null ? [] : [note.author_id])))];
  const [authors, linker] = await Promise.all([
    services.users.findMany(authorIds),
    pageReferences(services, project, standing, [description, ...notes.filter((note) => note.system !== 1).map((note) => note.note)]),
  ]);
  return {
    description: renderMarkdown(description ?? '', linker),
    notes: notes.map((note) => ({
      note,
      author: note.author_id === null ? undefined : authors.get(note.author_id),
      body: note.system === 1 ? renderMarkdown('') : renderMarkdown(note.note, linker),
    })),
  };
}
