import type { Selectable } from 'kysely';
import type { Db } from '../../db/index';
import type { SnippetsTable } from '../../db/schema';
import type { ServiceContext } from '../context';
import type { SettingsReader } from '../settings-reader';
import {
  INTERNAL,
  PRIVATE,
  PUBLIC,
  mayModifySnippet,
  mayUseRestrictedVisibility,
  visibilityName,
  type Caller,
  type ProjectStanding,
} from '../policy';
import { readableSnippetsIn } from '../policy-reads';
import { Validation, forbidden, notFound, notGiven, recordNotFound } from '../../errors';
import { inTransaction } from '../../db/transaction';
import { now } from '../../lib/time';
import { toInteger } from '../../lib/to-integer';

export type SnippetRow = Selectable<SnippetsTable>;

// A project removes its snippets' traces (`removeProjectSnippetTraces`), so snippets do not import projects: a project is its id here (any `Project` fits).
type Project = { id: number };

/** A snippet's fields as a client sends them; `code` is the content. */
export interface SnippetParams {
  title?: string;
  file_name?: string;
  code?: string;
  visibility_level?: number | string;
}

// GitLab 8.12's `Gitlab::Regex.file_name_regex` (`[[:alnum:]]` is Unicode-aware in Ruby) and its message.
const FILE_NAME = /^[\p{L}\p{M}\p{N}_\-.@]*$/u;
const FILE_NAME_MESSAGE = "can contain only letters, digits, '_', '-', '@' and '.'. ";
const LEVELS = [PRIVATE, INTERNAL, PUBLIC];

/** GitLab's `present?`: absent, null and blank (whitespace only) are not given. */
const isGiven = (value: unknown): boolean => value !== undefined && value !== null && String(value).trim() !== '';

/** The notes and award emoji of a project's snippets, which no foreign key reaches: removed with the project, in its transaction. */
export const removeProjectSnippetTraces = (trx: Db, projectId: number) => removeTraces(trx, { projectId });

/** The award emoji of some snippets and of their notes, and their notes (the snippets stay: the caller removes them). */
async function removeTraces(trx: Db, of: { projectId: number } | { snippetId: number }): Promise<void> {
  const snippets = trx.selectFrom('snippets').select('id');
  const snippetIds = 'projectId' in of ? snippets.where('project_id', '=', of.projectId) : snippets.where('id', '=', of.snippetId);
  const noteIds = trx.selectFrom('notes').select('id').where('noteable_type', '=', 'Snippet').where('noteable_id', 'in', snippetIds);
  await trx.deleteFrom('award_emoji').where('awardable_type', '=', 'Note').where('awardable_id', 'in', noteIds).execute();
  await trx.deleteFrom('award_emoji').where('awardable_type', '=', 'Snippet').where('awardable_id', 'in', snippetIds).execute();
  await trx.deleteFrom('notes').where('noteable_type', '=', 'Snippet').where('noteable_id', 'in', snippetIds).execute();
}

/** A project's snippets (GitLab 8.12's `ProjectSnippets` API): the guard has checked `read_project_snippet` or `create_project_snippet`. */
export class ProjectSnippetsService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly settings: SettingsReader,
  ) {}

  private visible(project: Project, standing: ProjectStanding) {
    return this.ctx.db.selectFrom('snippets').where('snippets.project_id', '=', project.id).where(readableSnippetsIn(standing));
  }

  /** Newest first. */
  async list(
    project: Project,
    standing: ProjectStanding,
    page: { offset: number; limit: number },
  ): Promise<{ snippets: SnippetRow[]; total: number }> {
    const query = this.visible(project, standing);
    const [snippets, count] = await Promise.all([
      query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').offset(page.offset).limit(page.limit).execute(),
      query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { snippets, total: Number(count.total) };
  }

  /** A snippet the caller sees; `404 Not found` otherwise, as 8.12's failed `find`. */
  async find(project: Project, standing: ProjectStanding, id: number): Promise<SnippetRow> {
    const snippet = await this.visible(project, standing).selectAll().where('id', '=', id).executeTakeFirst();
    if (!snippet) throw recordNotFound();
    return snippet;
  }

  async create(project: Project, standing: ProjectStanding, params: SnippetParams): Promise<SnippetRow> {
    // 8.12's `required_attributes!`, in its order.
    for (const attribute of ['title', 'file_name', 'code', 'visibility_level'] as const) {
      if (!isGiven(params[attribute])) throw notGiven(attribute);
    }
    const caller = standing.caller!;
    const level = toInteger(params.visibility_level);
    await this.refuseRestricted(caller, level);
    const validation = new Validation();
    checkFileName(validation, params.file_name!);
    checkLevel(validation, level);
    validation.throwIfInvalid();
    const time = now();
    return this.ctx.db
      .insertInto('snippets')
      .values({
        project_id: project.id,
        author_id: caller.id,
        title: params.title!,
        file_name: params.file_name!,
        content: params.code!,
        visibility_level: level!,
        created_at: time,
        updated_at: time,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Fields given and not blank change (8.12's `attributes_for_keys`); a blank one keeps its value. */
  async update(project: Project, standing: ProjectStanding, id: number, params: SnippetParams): Promise<SnippetRow> {
    const snippet = await this.find(project, standing, id);
    const caller = standing.caller;
    if (!mayModifySnippet(caller, snippet)) throw forbidden();
    const changes: Partial<Pick<SnippetRow, 'title' | 'file_name' | 'content' | 'visibility_level'>> = {};
    if (isGiven(params.title)) changes.title = params.title!;
    if (isGiven(params.file_name)) changes.file_name = params.file_name!;
    if (isGiven(params.code)) changes.content = params.code!;
    const validation = new Validation();
    if (isGiven(params.visibility_level)) {
      const level = toInteger(params.visibility_level);
      // 8.12 judged a restriction only when the level changes: a restricted snippet may still be edited.
      if (level !== snippet.visibility_level) await this.refuseRestricted(caller!, level);
      checkLevel(validation, level);
      changes.visibility_level = level;
    }
    if (changes.file_name !== undefined) checkFileName(validation, changes.file_name);
    validation.throwIfInvalid();
    if (Object.keys(changes).length === 0) return snippet;
    const updated = await this.ctx.db
      .updateTable('snippets')
      .set({ ...changes, updated_at: now() })
      .where('id', '=', snippet.id)
      .returningAll()
      .executeTakeFirst();
    // Removed by someone else since it was read.
    if (!updated) throw recordNotFound();
    return updated;
  }

  /** Answers the removed record. Unknown or invisible: `404 Snippet Not Found`; another's: 403. */
  async delete(project: Project, standing: ProjectStanding, id: number): Promise<SnippetRow> {
    const snippet = await this.visible(project, standing).selectAll().where('id', '=', id).executeTakeFirst();
    if (!snippet) throw notFound('Snippet');
    if (!mayModifySnippet(standing.caller, snippet)) throw forbidden();
    // No foreign key reaches the snippet's notes and award emoji, so they go in the same transaction.
    const removed = await inTransaction(this.ctx.db, async (trx) => {
      await removeTraces(trx, { snippetId: snippet.id });
      return trx.deleteFrom('snippets').where('id', '=', snippet.id).returningAll().executeTakeFirst();
    });
    if (!removed) throw notFound('Snippet');
    return removed;
  }

  /** GitLab 8.12's `allowed_for?`: a level the administrator restricted is refused to others, alone, before any other check. */
  private async refuseRestricted(caller: Caller, level: number | undefined): Promise<void> {
    if (mayUseRestrictedVisibility(caller) || level === undefined) return;
    const { restricted_visibility_levels: restricted } = await this.settings.get();
    if (!restricted.includes(level)) return;
    const validation = new Validation();
    validation.add('visibility_level', `${visibilityName(level)} has been restricted by your GitLab administrator`);
    validation.throwIfInvalid();
  }
}

function checkFileName(validation: Validation, fileName: string): void {
  if (!FILE_NAME.test(fileName)) validation.add('file_name', FILE_NAME_MESSAGE);
}

function checkLevel(validation: Validation, level: number | undefined): void {
  if (level === undefined || !LEVELS.includes(level)) validation.add('visibility_level', 'is not included in the list');
}
