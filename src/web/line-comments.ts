import type { Services } from '../services/index';
import type { Project } from '../services/projects/types';
import type { MergeRequestRow } from '../services/merge-requests/types';
import { mayResolveDiscussion, type ProjectStanding } from '../services/policy';
import { parsePosition } from '../services/notes/diff-positions';
import type { ShownNote } from './pages/issuable-parts';
import type { ShownDiscussion } from './pages/merge-requests/line-comments';

/**
 * A merge request's line comments as its pages show them, from the notes the Discussion tab
 * already rendered: each discussion with its file and line, where it sits on the latest version
 * (its line code, or outdated), and whether the reader may resolve it.
 */
export async function shownLineDiscussions(
  services: Services,
  project: Project,
  standing: ProjectStanding,
  mergeRequest: MergeRequestRow,
  notes: ShownNote[],
): Promise<{ discussions: ShownDiscussion[]; lineCodes: Map<string, string> }> {
  const discussions = (await services.mergeRequestDiscussions.list(project, standing, mergeRequest.id)).filter(
    (discussion) => !discussion.individualNote,
  );
  const placements = await services.mergeRequestDiscussions.placements(project, mergeRequest.id, discussions);
  const shown = new Map(notes.map((each) => [each.note.id, each]));
  const lineCodes = new Map<string, string>();
  const result = discussions.flatMap((discussion): ShownDiscussion[] => {
    const first = discussion.notes[0];
    const position = parsePosition(first.position);
    const placement = placements.get(discussion.id);
    if (!position || !placement) return [];
    if (!placement.outdated) lineCodes.set(discussion.id, placement.lineCode);
    return [
      {
        id: discussion.id,
        notes: discussion.notes.flatMap((note) => shown.get(note.id) ?? []),
        path: position.new_line === null ? position.old_path : position.new_path,
        line: position.new_line ?? position.old_line ?? 0,
        outdated: placement.outdated,
        resolved: first.resolved_at !== null,
        mayResolve: standing.caller !== null && mayResolveDiscussion(standing, mergeRequest, first.author_id),
      },
    ];
  });
  return { discussions: result, lineCodes };
}
