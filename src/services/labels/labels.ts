import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import { Validation, badRequest, conflict, notFound, validationFailed } from '../../errors';
import { isUniqueViolation } from '../../db/errors';
import { inTransaction } from '../../db/transaction';
import { now } from '../../lib/time';
import { recordIdOf } from '../../lib/record-id';
import type { ProjectStanding } from '../policy';
import { mayReadMergeRequest, readableIssuesIn } from '../policy-reads';
import { TITLE_TAKEN, checkColor, checkTitle, type LabelRow } from './rules';

/** A label as the API shows it to one caller. */
export interface LabelView extends LabelRow {
  open_issues_count: number;
  closed_issues_count: number;
  open_merge_requests_count: number;
  subscribed: boolean;
}

export interface NewLabel {
  name: string;
  color: string;
  description?: string;
}

export interface LabelChanges {
  new_name?: string;
  color?: string;
  description?: string;
}

/** A project's labels: everyone who reads the project lists them, reporters manage them. */
export class LabelsService {
  constructor(private readonly ctx: ServiceContext) {}

  private get db(): Db {
    return this.ctx.db;
  }

  /** Every label of the project by title, with its counts and the caller's subscription: three queries for any number. */
  async list(projectId: number, standing: ProjectStanding): Promise<LabelView[]> {
    const labels = await this.db.selectFrom('labels').selectAll().where('project_id', '=', projectId).orderBy('title').execute();
    return this.views(projectId, standing, labels);
  }

  /** 409 `Label already exists` for a title the project has, also when a concurrent request took it first. */
  async create(projectId: number, standing: ProjectStanding, label: NewLabel): Promise<LabelView> {
    if (await this.findByTitle(projectId, label.name)) throw conflict('Label already exists');
    const validation = new Validation();
    checkColor(validation, label.color);
    checkTitle(validation, label.name);
    validation.throwIfInvalid();
    const time = now();
    const created = await this.db
      .insertInto('labels')
      .values({
        project_id: projectId,
        title: label.name,
        color: label.color,
        description: label.description ?? null,
        created_at: time,
        updated_at: time,
      })
      .onConflict((oc) => oc.columns(['project_id', 'title']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!created) throw conflict('Label already exists');
    return (await this.views(projectId, standing, [created]))[0];
  }

  /**
   * Renames, recolours or redescribes the label called `name`. 8.12's order: the label (404), then
   * something to change (blank values are not given), then the record's validations.
   */
  async update(projectId: number, standing: ProjectStanding, name: string, changes: LabelChanges): Promise<LabelView> {
    const label = await this.findByTitle(projectId, name);
    if (!label) throw notFound('Label not found');
    if (changes.new_name === undefined && changes.color === undefined && changes.description === undefined) {
      throw badRequest('Required parameters "new_name" or "color" missing');
    }
    const title = changes.new_name ?? label.title;
    const color = changes.color ?? label.color;
    const validation = new Validation();
    checkColor(validation, color);
    checkTitle(validation, title);
    if (title !== label.title && (await this.findByTitle(projectId, title))) validation.add('title', TITLE_TAKEN);
    validation.throwIfInvalid();
    try {
      const updated = await this.db
        .updateTable('labels')
        .set({ title, color, description: changes.description ?? label.description, updated_at: now() })
        .where('id', '=', label.id)
        .returningAll()
        .executeTakeFirst();
      // Removed by a concurrent request since it was read.
      if (!updated) throw notFound('Label not found');
      return (await this.views(projectId, standing, [updated]))[0];
    } catch (error) {
      // Another request gave its label this title between the check and the update.
      if (isUniqueViolation(error)) throw validationFailed({ title: [TITLE_TAKEN] });
      throw error;
    }
  }

  /**
   * Removes the label called `name` and answers its record. Its links to issues go with it (the
   * foreign key's cascade); subscriptions point at labels by type and id, so they are removed here.
   */
  async delete(projectId: number, name: string): Promise<LabelRow> {
    const removed = await inTransaction(this.db, async (trx) => {
      const label = await trx
        .deleteFrom('labels')
        .where('project_id', '=', projectId)
        .where('title', '=', name)
        .returningAll()
        .executeTakeFirst();
      if (label)
        await trx.deleteFrom('subscriptions').where('subscribable_type', '=', 'Label').where('subscribable_id', '=', label.id).execute();
      return label;
    });
    if (!removed) throw notFound('Label');
    return removed;
  }

  /**
   * A label of the project by id, or else by title (8.12's `find_project_label`), as the caller sees
   * it; `404 Label Not Found` when neither names one.
   */
  async findByIdOrTitle(projectId: number, standing: ProjectStanding, idOrTitle: string): Promise<LabelView> {
    const id = recordIdOf(idOrTitle);
    const byId =
      id !== undefined
        ? await this.db.selectFrom('labels').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst()
        : undefined;
    const label = byId ?? (await this.findByTitle(projectId, idOrTitle));
    if (!label) throw notFound('Label');
    return (await this.views(projectId, standing, [label]))[0];
  }

  private findByTitle(projectId: number, title: string): Promise<LabelRow | undefined> {
    return this.db.selectFrom('labels').selectAll().where('project_id', '=', projectId).where('title', '=', title).executeTakeFirst();
  }

  /**
   * Counts and subscriptions for labels of one project. A count counts what the caller may read
   * (`policy-reads.ts`), so it tells nobody about issues or merge requests they may not see: 8.12's
   * API counted with no user, which left confidential issues out for everyone.
   */
  private async views(projectId: number, standing: ProjectStanding, labels: LabelRow[]): Promise<LabelView[]> {
    if (labels.length === 0) return [];
    const userId = standing.caller?.id ?? 0;
    const projectLabels = this.db.selectFrom('labels').select('id').where('project_id', '=', projectId);
    const [counts, mergeRequestCounts, subscriptions] = await Promise.all([
      this.db
        .selectFrom('label_links')
        .innerJoin('issues', 'issues.id', 'label_links.target_id')
        .where('label_links.target_type', '=', 'Issue')
        .where('label_links.label_id', 'in', projectLabels)
        .where(readableIssuesIn(standing))
        .select((eb) => [
          'label_links.label_id',
          eb.fn.sum<number | string>(eb.case().when('issues.state', 'in', ['opened', 'reopened']).then(1).else(0).end()).as('open'),
          eb.fn.sum<number | string>(eb.case().when('issues.state', '=', 'closed').then(1).else(0).end()).as('closed'),
        ])
        .groupBy('label_links.label_id')
        .execute(),
      // Nothing to count for a caller who may not read the project's merge requests.
      mayReadMergeRequest(standing)
        ? this.db
            .selectFrom('label_links')
            .innerJoin('merge_requests', 'merge_requests.id', 'label_links.target_id')
            .where('label_links.target_type', '=', 'MergeRequest')
            .where('label_links.label_id', 'in', projectLabels)
            .where('merge_requests.state', 'in', ['opened', 'reopened'])
            .select((eb) => ['label_links.label_id', eb.fn.countAll<number | string>().as('open')])
            .groupBy('label_links.label_id')
            .execute()
        : [],
      this.db
        .selectFrom('subscriptions')
        .select('subscribable_id')
        .where('user_id', '=', userId)
        .where('subscribable_type', '=', 'Label')
        .where('subscribed', '=', 1)
        .where('subscribable_id', 'in', projectLabels)
        .execute(),
    ]);
    const countsOf = new Map(counts.map((row) => [row.label_id, row]));
    const mergeRequestCountOf = new Map(mergeRequestCounts.map((row) => [row.label_id, Number(row.open)]));
    const subscribed = new Set(subscriptions.map((row) => row.subscribable_id));
    return labels.map((label) => ({
      ...label,
      open_issues_count: Number(countsOf.get(label.id)?.open ?? 0),
      closed_issues_count: Number(countsOf.get(label.id)?.closed ?? 0),
      open_merge_requests_count: mergeRequestCountOf.get(label.id) ?? 0,
      subscribed: subscribed.has(label.id),
    }));
  }
}
