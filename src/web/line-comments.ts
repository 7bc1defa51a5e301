import type { Services } from '../services/index';
import type { Project } from '../services/projects/types';
import type { MergeRequestRow } from '../services/merge-requests/types';
import type { VersionView } from '../services/merge-requests/reads';
import { can, mayResolveDiscussion, type ProjectStanding } from '../services/policy';
import { parsePosition } from '../services/notes/diff-positions';
import { groupDiscussions, type Discussion } from '../services/notes/merge-request-discussions';
import type { PageContext } from './context';
import { html } from './html';
import type { ShownNote } from './pages/issuable-parts';
import { placeLabel, resolveButton, threadReplies, type ShownDiscussion } from './pages/merge-requests/line-comments';

/**
 * A merge request's line comments as its pages show them, from their notes already rendered:
 * each discussion with its file and line, where it sits on the version looked at (its line code,
 * or outdated; the latest version when `view` is not given), and what the reader may do with it.
 */
export async function shownLineDiscussions(
  services: Services,
  project: Project,
  standing: ProjectStanding,
  mergeRequest: MergeRequestRow,
  discussions: Discussion[],
  notes: ShownNote[],
  view?: VersionView,
): Promise<{ discussions: ShownDiscussion[]; lineCodes: Map<string, string> }> {
  const lines = discussions.filter((discussion) => !discussion.individualNote && discussion.notes[0].type === 'DiffNote');
  const placements = await services.mergeRequestDiscussions.placements(project, mergeRequest.id, lines, view);
  const shown = new Map(notes.map((each) => [each.note.id, each]));
  const lineCodes = new Map<string, string>();
  const mayReply = standing.caller !== null && can(standing, 'create_note');
  const result = lines.flatMap((discussion): ShownDiscussion[] => {
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
        mayReply,
      },
    ];
  });
  return { discussions: result, lineCodes };
}

/**
 * The Discussion tab's notes: a line comment's thread drawn as one, its first note saying where
 * it sits (file, line, outdated) with its resolve button, its replies and reply form under it.
 */
export async function discussionTabNotes(
  services: Services,
  page: PageContext,
  base: string,
  project: Project,
  standing: ProjectStanding,
  mergeRequest: MergeRequestRow,
  notes: ShownNote[],
): Promise<ShownNote[]> {
  const grouped = groupDiscussions(notes.map((each) => each.note));
  const { discussions } = await shownLineDiscussions(services, project, standing, mergeRequest, grouped, notes);
  const threads = new Map(discussions.map((each) => [each.notes[0]?.note.id, each]));
  const replies = new Set(discussions.flatMap((each) => each.notes.slice(1).map((reply) => reply.note.id)));
  return notes.flatMap((each) => {
    if (replies.has(each.note.id)) return [];
    const thread = threads.get(each.note.id);
    if (!thread) return [each];
    return [
      {
        ...each,
        extra: html`${placeLabel(thread)}${resolveButton(page, base, thread)}`,
        thread: threadReplies(page, base, thread),
      },
    ];
  });
}
