import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import type { Project } from '../projects/types';
import type { UsersService } from '../users/users';
import type { LabelsService, LabelView } from '../labels/labels';
import type { ProjectStanding } from '../policy';
import type { IssueDetails } from '../issues/types';
import { notFound, notModified, recordNotFound } from '../../errors';
import { now } from '../../lib/time';
import { loadIssueDetails } from '../issues/details';
import { mayReadIssue } from '../policy-reads';
import type { MergeRequestDetails } from '../merge-requests/types';
import { findMergeRequest } from '../merge-requests/queries';
import { loadMergeRequestDetails } from '../merge-requests/details';

type Subscribable = { type: 'Issue' | 'MergeRequest' | 'Label'; id: number };

/**
 * Subscriptions to a project's issues, merge requests and labels (GitLab 8.12's `subscriptions.rb`): a subscription
 * that changes nothing answers 304. Whether the caller is subscribed follows `Subscribable#subscribed?`
 * (`participantSubscriptions` for issues and merge requests; a label has no participants, so only its row counts).
 */
export class SubscriptionsService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly users: UsersService,
    private readonly labels: LabelsService,
  ) {}

  async subscribeToIssue(project: Project, standing: ProjectStanding, issueId: number): Promise<IssueDetails> {
    return this.changeIssue(project, standing, issueId, true);
  }

  async unsubscribeFromIssue(project: Project, standing: ProjectStanding, issueId: number): Promise<IssueDetails> {
    return this.changeIssue(project, standing, issueId, false);
  }

  async subscribeToMergeRequest(project: Project, standing: ProjectStanding, mergeRequestId: number): Promise<MergeRequestDetails> {
    return this.changeMergeRequest(project, standing, mergeRequestId, true);
  }

  async unsubscribeFromMergeRequest(project: Project, standing: ProjectStanding, mergeRequestId: number): Promise<MergeRequestDetails> {
    return this.changeMergeRequest(project, standing, mergeRequestId, false);
  }

  async subscribeToLabel(project: Project, standing: ProjectStanding, idOrTitle: string): Promise<LabelView> {
    return this.changeLabel(project, standing, idOrTitle, true);
  }

  async unsubscribeFromLabel(project: Project, standing: ProjectStanding, idOrTitle: string): Promise<LabelView> {
    return this.changeLabel(project, standing, idOrTitle, false);
  }

  /** The issue by its global id (`404 Not found`; a confidential one the caller may not read `404 Not Found`). */
  private async changeIssue(project: Project, standing: ProjectStanding, issueId: number, subscribed: boolean): Promise<IssueDetails> {
    const { db } = this.ctx;
    const caller = standing.caller!;
    const issue = await db
      .selectFrom('issues')
      .selectAll()
      .where('id', '=', issueId)
      .where('project_id', '=', project.id)
      .executeTakeFirst();
    if (!issue) throw recordNotFound();
    if (!mayReadIssue(standing, issue)) throw notFound();
    const [before] = await loadIssueDetails(db, this.users, [issue], caller.id, [project]);
    if (before.subscribed === subscribed) throw notModified();
    await setSubscription(db, caller.id, { type: 'Issue', id: issue.id }, subscribed);
    return { ...before, subscribed };
  }

  /** The merge request by its global id (`404 Not found`); the route has checked `read_merge_request`. */
  private async changeMergeRequest(
    project: Project,
    standing: ProjectStanding,
    mergeRequestId: number,
    subscribed: boolean,
  ): Promise<MergeRequestDetails> {
    const { db } = this.ctx;
    const caller = standing.caller!;
    const mergeRequest = await findMergeRequest(db, project, mergeRequestId);
    const [before] = await loadMergeRequestDetails(db, this.users, [mergeRequest], caller.id, [project]);
    if (before.subscribed === subscribed) throw notModified();
    await setSubscription(db, caller.id, { type: 'MergeRequest', id: mergeRequest.id }, subscribed);
    return { ...before, subscribed };
  }

  private async changeLabel(project: Project, standing: ProjectStanding, idOrTitle: string, subscribed: boolean): Promise<LabelView> {
    const caller = standing.caller!;
    const label = await this.labels.findByIdOrTitle(project.id, standing, idOrTitle);
    if (label.subscribed === subscribed) throw notModified();
    await setSubscription(this.ctx.db, caller.id, { type: 'Label', id: label.id }, subscribed);
    return { ...label, subscribed };
  }
}

/**
 * The caller's row for the subscribable, made or changed by one statement, so two requests at once
 * never collide on the unique index. An unsubscription is kept as a row: it overrides participation.
 */
async function setSubscription(db: Db, userId: number, subscribable: Subscribable, subscribed: boolean): Promise<void> {
  const time = now();
  const flag = subscribed ? 1 : 0;
  await db
    .insertInto('subscriptions')
    .values({
      user_id: userId,
      subscribable_type: subscribable.type,
      subscribable_id: subscribable.id,
      subscribed: flag,
      created_at: time,
      updated_at: time,
    })
    .onConflict((oc) => oc.columns(['subscribable_type', 'subscribable_id', 'user_id']).doUpdateSet({ subscribed: flag, updated_at: time }))
    .execute();
}
