import type { Services } from '../services/index';
import type { NoteRow } from '../services/notes/types';
import type { Project } from '../services/projects/types';
import type { ProjectStanding } from '../services/policy';
import { renderMarkdown } from './markdown';
import { pageReferences, parseReferences, type ReferenceLinker } from './references';
import type { SafeHtml } from './html';
import type { ShownNote } from './pages/issuable-parts';

/** Texts kept rendered: this many characters of them at most, each under a limit. */
const KEPT_CHARACTERS = 8 * 1024 * 1024;
const KEPT_TEXT_LIMIT = 16 * 1024;

/**
 * Notes without a reference rendered once: their HTML is a pure function of their text (no
 * linker, no caller, no place), and a review of hundreds of line comments would otherwise parse
 * and sanitize each of them on every page. A note with a reference depends on who reads it and
 * what exists now: it is rendered each time. Least recently used first out. One per web door,
 * made in `index.ts`.
 */
export class NoteRenderings {
  private readonly plainRendered = new Map<string, SafeHtml>();
  private keptCharacters = 0;

  render(text: string, linker: ReferenceLinker): SafeHtml {
    const known = this.plainRendered.get(text);
    if (known) {
      this.plainRendered.delete(text);
      this.plainRendered.set(text, known);
      return known;
    }
    const query = parseReferences([text]);
    const plain = Object.values(query).every((list) => list.length === 0);
    const rendered = renderMarkdown(text, plain ? undefined : linker);
    if (!plain || text.length > KEPT_TEXT_LIMIT) return rendered;
    this.plainRendered.set(text, rendered);
    this.keptCharacters += text.length + rendered.value.length;
    while (this.keptCharacters > KEPT_CHARACTERS) {
      const [oldest, html] = this.plainRendered.entries().next().value as [string, SafeHtml];
      this.plainRendered.delete(oldest);
      this.keptCharacters -= oldest.length + html.value.length;
    }
    return rendered;
  }
}

/**
 * Notes as a page draws them: their authors, and each comment rendered with the page's
 * references (the description's too, when given, so that both share one look-up).
 */
export async function renderNotes(
  services: Services,
  renderings: NoteRenderings,
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
      body: note.system === 1 ? renderMarkdown('') : renderings.render(note.note, linker),
    })),
  };
}
