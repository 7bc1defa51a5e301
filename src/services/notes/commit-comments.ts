import type { ServiceContext } from '../context';
import type { EventsService } from '../events/events';
import type { Project } from '../projects/types';
import type { CommitReadsService } from '../repository/commit-reads';
import { repoPathOf } from '../repository/repositories';
import { now } from '../../lib/time';
import { commitDiff } from '../../git/diff';
import { emitProjectEvents } from '../hooks/project-events';
import type { User } from '../users/users';
import type { Commit } from '../../git/objects';
import { isFullOid } from '../../git/ref-names';
import type { NoteRow } from './types';
import { buildCommitNoteData } from './commit-note-data';
import { findLine, type FoundLine, type Placement } from './diff-lines';
import { inTransaction } from '../../db/transaction';

export interface NewCommitComment {
  note: string;
  path?: string;
  /** As sent: GitLab read it with `to_i`. */
  line?: unknown;
  lineType?: string;
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
  async list(project: Project, sha: string, page: { offset: number; limit: number }): Promise<{ notes: NoteRow[]; total: number }> {
    const commit = await this.commits.find(project, sha);
    const query = this.ctx.db
      .selectFrom('notes')
      .where('project_id', '=', project.id)
      .where('noteable_type', '=', 'Commit')
      .where('commit_id', '=', commit.id);
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
  async create(project: Project, author: User, sha: string, comment: NewCommitComment): Promise<NoteRow> {
    const commit = await this.commits.find(project, sha);
    const placement = isFullOid(sha) ? await this.placement(project, commit, comment) : undefined;
    const authorId = author.id;
    const time = now();
    return inTransaction(this.ctx.db, async (trx) => {
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
      const data = buildCommitNoteData({ note, author, project, commit, placement, urls: this.ctx.config });
      await emitProjectEvents(this.ctx, trx, project.id, 'note_events', 'Note Hook', [data]);
      return note;
    });
  }

  private async placement(project: Project, commit: Commit, comment: NewCommitComment): Promise<(Placement & FoundLine) | undefined> {
    const line = Number.parseInt(String(comment.line ?? ''), 10);
    if (!comment.path || !comment.lineType || !Number.isFinite(line)) return undefined;
    const wanted = { path: comment.path, line, lineType: comment.lineType };
    const { files } = await commitDiff(this.ctx.git, repoPathOf(this.ctx, project.id), commit);
    const found = findLine(files, wanted);
    return found && { ...wanted, ...found };
  }
}
