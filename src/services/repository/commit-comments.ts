import type { Selectable } from 'kysely';
import type { NotesTable } from '../../db/schema';
import type { ServiceContext } from '../context';
import type { EventsService } from '../events/events';
import type { Project } from '../projects/types';
import type { CommitReadsService } from './commit-reads';
import { repoPathOf } from './repositories';
import { now } from '../../lib/time';
import { commitDiff, type DiffFile } from '../../git/diff';
import { emitProjectEvents } from '../hooks/project-events';
import type { User } from '../users/users';
import { buildCommitNoteData } from './note-data';
import type { Commit } from '../../git/objects';
import { isFullOid } from '../../git/ref-names';

export type CommitNote = Selectable<NotesTable>;

export interface NewCommitComment {
  note: string;
  path?: string;
  /** As sent: GitLab read it with `to_i`. */
  line?: unknown;
  lineType?: string;
}

interface Placement {
  path: string;
  line: number;
  lineType: string;
}

/** Where a placed comment sits: its line on the old side, and its file's diff (for the Note Hook). */
interface FoundLine {
  oldLine: number;
  file: DiffFile;
}

/**
 * Finds the diff line a comment asks for, as GitLab's `Gitlab::Diff::Parser` numbers lines: the
 * file whose new path is `path`, a line whose new-side number is `line` and whose type is
 * `line_type` (`new` for an added line, `old` for a removed one; context lines have no type).
 */
function findLine(diffs: DiffFile[], wanted: Placement): FoundLine | undefined {
  for (const file of diffs) {
    if (file.newPath !== wanted.path) continue;
    let oldLine = 1;
    let newLine = 1;
    let inHunk = false;
    for (const text of file.diff.split('\n')) {
      const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)/.exec(text);
      if (hunk) {
        oldLine = Number(hunk[1]);
        newLine = Number(hunk[2]);
        inHunk = true;
        continue;
      }
      // The `---`/`+++` file names come before the first hunk; inside one they are lines like any other.
      if (!inHunk || text === '') continue;
      const type = text[0] === '+' ? 'new' : text[0] === '-' ? 'old' : undefined;
      if (type === wanted.lineType && newLine === wanted.line) return { oldLine, file };
      if (text[0] === '+') newLine += 1;
      else if (text[0] === '-') oldLine += 1;
      else if (text[0] !== '\\') {
        newLine += 1;
        oldLine += 1;
      }
    }
  }
  return undefined;
}

/** Comments on commits (`notes` with `noteable_type` 'Commit'). */
export class CommitCommentsService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly commits: CommitReadsService,
    private readonly events: EventsService,
  ) {}

  /**
   * A commit's comments, oldest first. GitLab listed every project's comments on that sha (a fork's
   * private comments included); only this project's are listed here.
   */
  async list(project: Project, sha: string, page: { offset: number; limit: number }): Promise<{ notes: CommitNote[]; total: number }> {
    const commit = await this.commits.find(project, sha);
    const query = this.ctx.db.selectFrom('notes').where('project_id', '=', project.id).where('noteable_type', '=', 'Commit').where('commit_id', '=', commit.id);
    const [notes, count] = await Promise.all([
      query.selectAll().orderBy('created_at').orderBy('id').offset(page.offset).limit(page.limit).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { notes, total: Number(count.total) };
  }

  /**
   * A comment on the commit, placed on a diff line when the commit is named by its full sha and
   * `path`, `line` and `line_type` name a line it changed; otherwise on the commit as a whole
   * (`path`, `line` and `line_type` null).
   */
  async create(project: Project, author: User, sha: string, comment: NewCommitComment): Promise<CommitNote> {
    const commit = await this.commits.find(project, sha);
    const placement = isFullOid(sha) ? await this.placement(project, commit, comment) : undefined;
    const authorId = author.id;
    const time = now();
    return this.ctx.db.transaction().execute(async (trx) => {
      const note = await trx
        .insertInto('notes')
        .values({
          project_id: project.id,
          noteable_type: 'Commit',
          noteable_id: null,
          commit_id: commit.id,
          author_id: authorId,
          note: comment.note,
          path: placement?.path ?? null,
          line: placement?.line ?? null,
          line_type: placement?.lineType ?? null,
          system: 0,
          attachment: null,
          created_at: time,
          updated_at: time,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await this.events.record(trx, { projectId: project.id, authorId, action: 'commented on', targetId: note.id, targetType: 'Note' });
      const data = buildCommitNoteData({ note, author, project, commit, placement, externalUrl: this.ctx.config.externalUrl });
      await emitProjectEvents(this.ctx, trx, project.id, 'note_events', 'Note Hook', [data]);
      return note;
    });
  }

  private async placement(project: Project, commit: Commit, comment: NewCommitComment): Promise<(Placement & FoundLine) | undefined> {
    const line = Number.parseInt(String(comment.line ?? ''), 10);
    if (!comment.path || !comment.lineType || !Number.isFinite(line)) return undefined;
    const wanted = { path: comment.path, line, lineType: comment.lineType };
    const { files } = await commitDiff(repoPathOf(this.ctx, project.id), commit);
    const found = findLine(files, wanted);
    return found && { ...wanted, ...found };
  }
}
