import type { ServiceContext } from '../context';
import type { Project } from '../projects/types';
import type { User } from '../users/users';
import type { IssuesService } from '../issues/issues';
import type { IssueAttributes, IssueDetails } from '../issues/types';
import type { MergeRequestsService } from '../merge-requests/merge-requests';
import type { MergeRequestAttributes, MergeRequestDetails } from '../merge-requests/types';
import type { NoteableNotesService, NewNote, Created } from '../notes/noteable-notes';
import type { SubscriptionsService } from '../subscriptions/subscriptions';
import type { TodosService } from '../todos/todos';
import { can, mayUpdateMergeRequest, type ProjectStanding } from '../policy';
import { ApiError, forbidden, notFound } from '../../errors';
import { findNoteable } from '../notes/noteables';
import { mayUpdateIssue } from '../policy-reads';
import { OPEN_STATES } from '../merge-requests/types';
import { isWorkInProgress, wiplessTitle } from '../issuables/work-in-progress';
import { hasPendingTodo } from '../todos/queries';
import { extractCommands } from './extract';
import { interpretCommands, summarize, type CommandsChanges, type Target, type Vocabulary } from './interpret';

/** A note that held commands only: no note was made, and this is what the commands changed. */
export interface CommandsOnly {
  commands: { changes: CommandsChanges; summary: string[] };
  note?: undefined;
  award?: undefined;
}

/** What a note on an issue or merge request made: the note or award, or the changes of its commands alone. */
export type NoteOrCommands = (Created & { commands?: undefined }) | CommandsOnly;

type Issuable = { type: 'Issue'; details: IssueDetails } | { type: 'MergeRequest'; details: MergeRequestDetails };

/**
 * Slash commands (GitLab 8.12's `SlashCommands::InterpretService` with `Notes::SlashCommandsService`
 * and `IssuableBaseService#merge_slash_commands_into_params!`): in a new note on an issue or a merge
 * request, and in the description of one being created or changed, lines such as `/close` or
 * `/label ~bug` are taken out of the text and run with the caller's rights.
 *
 * Commands are applied through the issues, merge requests, todos and subscriptions services, the
 * same calls the API's own routes make, so system notes, events, hooks and todos record them as
 * they record the same change made through the API. This domain depends on those; none of them
 * knows it: the doors call it in place of their plain create and update.
 */
export class SlashCommandsService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly deps: {
      notes: NoteableNotesService;
      issues: IssuesService;
      mergeRequests: MergeRequestsService;
      subscriptions: SubscriptionsService;
      todos: TodosService;
    },
  ) {}

  /**
   * A note on an issue or a merge request. As 8.12's `Notes::CreateService`: the commands are read
   * against the issuable as it is, the note is saved without them, then they are applied (so their
   * system notes follow the note). A note of commands only makes no note: the answer says what they changed.
   */
  async createNote(
    project: Project,
    standing: ProjectStanding,
    actor: User,
    kind: 'issues' | 'merge_requests',
    noteableId: number,
    given: NewNote,
  ): Promise<NoteOrCommands> {
    const { text, commands } = extractCommands(given.body);
    if (commands.length === 0) return this.deps.notes.create(project, standing, actor, kind, noteableId, given);
    // The notes service's own refusals, for a note that will not reach it.
    const noteable = await findNoteable(this.ctx.db, project, standing, kind, noteableId).catch(() => undefined);
    if (!noteable?.readable) throw notFound('Note {:invalid_project=>["Note and noteable project mismatch"]}');
    if (!can(standing, 'create_note')) throw forbidden();
    const issuable = await this.issuable(project, standing, kind === 'issues' ? 'Issue' : 'MergeRequest', noteableId);
    const vocabulary = await this.vocabulary(project.id);
    const changes = await interpretCommands(commands, await this.target(project, standing, issuable, vocabulary), vocabulary);
    const created =
      text === '' ? undefined : await this.deps.notes.create(project, standing, actor, kind, noteableId, { ...given, body: text });
    await this.apply(project, standing, actor, issuable, changes, vocabulary);
    return created ?? { commands: { changes, summary: summarize(changes, issuable, vocabulary.labels) } };
  }

  /** A new issue whose description may hold `/assign`, `/milestone`, `/label` and `/due`. */
  async createIssue(project: Project, standing: ProjectStanding, actor: User, attributes: IssueAttributes): Promise<IssueDetails> {
    const { text, commands } = extractCommands(attributes.description ?? '');
    if (commands.length === 0) return this.deps.issues.create(project, standing, actor, attributes);
    const vocabulary = await this.vocabulary(project.id);
    const target = newTarget('Issue', can(standing, 'admin_issue'), attributes.title ?? '');
    const changes = await interpretCommands(commands, target, vocabulary);
    const merged = mergeIssueChanges({ ...attributes, description: text || undefined }, changes, [], vocabulary);
    return this.deps.issues.create(project, standing, actor, merged);
  }

  /** A change to an issue whose new description may hold commands: they join the change, in the same update (8.12). */
  async updateIssue(
    project: Project,
    standing: ProjectStanding,
    actor: User,
    issueId: number,
    attributes: IssueAttributes,
  ): Promise<IssueDetails> {
    const { text, commands } = extractCommands(attributes.description ?? '');
    if (commands.length === 0) return this.deps.issues.update(project, standing, actor, issueId, attributes);
    // An issue the caller may not read gets the update's own refusal.
    const issuable = await this.issuable(project, standing, 'Issue', issueId).catch(() => undefined);
    if (!issuable) return this.deps.issues.update(project, standing, actor, issueId, { ...attributes, description: text });
    const vocabulary = await this.vocabulary(project.id);
    const changes = await interpretCommands(commands, await this.target(project, standing, issuable, vocabulary), vocabulary);
    const labelIds = labelIdsOf(issuable.details.labels, vocabulary);
    const updated = await this.deps.issues.update(
      project,
      standing,
      actor,
      issueId,
      mergeIssueChanges({ ...attributes, description: text }, changes, labelIds, vocabulary),
    );
    return (await this.followUps(project, standing, actor, issuable, changes))
      ? this.deps.issues.find(project, standing, issueId)
      : updated;
  }

  /** A new merge request whose description may hold `/assign`, `/milestone` and `/label` (its target project's). */
  async createMergeRequest(source: Project, actor: User, attributes: MergeRequestAttributes): Promise<MergeRequestDetails> {
    const { text, commands } = extractCommands(attributes.description ?? '');
    if (commands.length === 0) return this.deps.mergeRequests.create(source, actor, attributes);
    const vocabulary = await this.vocabulary(attributes.targetProjectId ?? source.id);
    // Who administers the target's merge requests, the create's own filter decides (`allowed`).
    const changes = await interpretCommands(commands, newTarget('MergeRequest', true, attributes.title ?? ''), vocabulary);
    return this.deps.mergeRequests.create(
      source,
      actor,
      mergeMergeRequestChanges({ ...attributes, description: text || undefined }, changes, [], vocabulary, attributes.title ?? ''),
    );
  }

  /** A change to a merge request whose new description may hold commands: they join the change (8.12). */
  async updateMergeRequest(
    project: Project,
    standing: ProjectStanding,
    actor: User,
    mergeRequestId: number,
    attributes: MergeRequestAttributes,
  ): Promise<MergeRequestDetails> {
    const { text, commands } = extractCommands(attributes.description ?? '');
    if (commands.length === 0) return this.deps.mergeRequests.update(project, standing, actor, mergeRequestId, attributes);
    const details = await this.deps.mergeRequests.find(project, standing, mergeRequestId);
    const issuable: Issuable = { type: 'MergeRequest', details };
    const vocabulary = await this.vocabulary(project.id);
    const changes = await interpretCommands(commands, await this.target(project, standing, issuable, vocabulary), vocabulary);
    const labelIds = labelIdsOf(details.labels, vocabulary);
    const title = attributes.title ?? details.mergeRequest.title;
    const merged = mergeMergeRequestChanges({ ...attributes, description: text }, changes, labelIds, vocabulary, title);
    const updated = await this.deps.mergeRequests.update(project, standing, actor, mergeRequestId, merged);
    return (await this.followUps(project, standing, actor, issuable, changes))
      ? this.deps.mergeRequests.find(project, standing, mergeRequestId)
      : updated;
  }

  /** The changes of a note's commands, through the services the API's routes call. */
  private async apply(
    project: Project,
    standing: ProjectStanding,
    actor: User,
    issuable: Issuable,
    changes: CommandsChanges,
    vocabulary: Vocabulary,
  ): Promise<void> {
    if (issuable.type === 'Issue') {
      const attributes = mergeIssueChanges({}, changes, labelIdsOf(issuable.details.labels, vocabulary), vocabulary);
      if (Object.values(attributes).some((value) => value !== undefined))
        await this.deps.issues.update(project, standing, actor, issuable.details.issue.id, attributes);
    } else {
      const mergeRequest = issuable.details.mergeRequest;
      const attributes = mergeMergeRequestChanges(
        {},
        changes,
        labelIdsOf(issuable.details.labels, vocabulary),
        vocabulary,
        mergeRequest.title,
      );
      if (Object.values(attributes).some((value) => value !== undefined))
        await this.deps.mergeRequests.update(project, standing, actor, mergeRequest.id, attributes);
    }
    await this.followUps(project, standing, actor, issuable, changes);
  }

  /** The todo and subscription of the caller, after the update (8.12's `handle_changes` order). True when something changed. */
  private async followUps(
    project: Project,
    standing: ProjectStanding,
    actor: User,
    issuable: Issuable,
    changes: CommandsChanges,
  ): Promise<boolean> {
    const { todos, subscriptions } = this.deps;
    const id = issuable.type === 'Issue' ? issuable.details.issue.id : issuable.details.mergeRequest.id;
    // A 304 means a request at the same time made the same change: nothing is left to do.
    const unlessUnchanged = (work: Promise<unknown>) =>
      work.catch((error) => {
        if (!(error instanceof ApiError && error.status === 304)) throw error;
      });
    if (changes.todo_event === 'add') {
      await unlessUnchanged(
        issuable.type === 'Issue' ? todos.markIssue(project, standing, actor, id) : todos.markMergeRequest(project, actor, id),
      );
    }
    if (changes.todo_event === 'done')
      await todos.markTargetDone(actor, { projectId: project.id, targetType: issuable.type, targetId: id });
    if (changes.subscription_event) {
      const subscribe = changes.subscription_event === 'subscribe';
      const work =
        issuable.type === 'Issue'
          ? subscribe
            ? subscriptions.subscribeToIssue(project, standing, id)
            : subscriptions.unsubscribeFromIssue(project, standing, id)
          : subscribe
            ? subscriptions.subscribeToMergeRequest(project, standing, id)
            : subscriptions.unsubscribeFromMergeRequest(project, standing, id);
      await unlessUnchanged(work);
    }
    return changes.todo_event !== undefined || changes.subscription_event !== undefined;
  }

  /** The issue or merge request as the caller reads it (`404` as its own route answers when they may not). */
  private async issuable(project: Project, standing: ProjectStanding, type: Issuable['type'], id: number): Promise<Issuable> {
    if (type === 'Issue') return { type, details: await this.deps.issues.find(project, standing, id) };
    return { type, details: await this.deps.mergeRequests.find(project, standing, id) };
  }

  private async target(project: Project, standing: ProjectStanding, issuable: Issuable, vocabulary: Vocabulary): Promise<Target> {
    const caller = standing.caller!;
    const labelIds = labelIdsOf(issuable.details.labels, vocabulary);
    const common = { persisted: true, labelIds, subscribed: issuable.details.subscribed };
    if (issuable.type === 'Issue') {
      const issue = issuable.details.issue;
      return {
        ...common,
        type: 'Issue',
        open: issue.state !== 'closed',
        closed: issue.state === 'closed',
        title: issue.title,
        assigneeId: issue.assignee_id,
        milestoneId: issue.milestone_id,
        dueDate: issue.due_date,
        mayUpdate: mayUpdateIssue(standing, issue),
        mayAdmin: can(standing, 'admin_issue'),
        hasPendingTodo: await hasPendingTodo(this.ctx.db, caller.id, { projectId: project.id, targetType: 'Issue', targetId: issue.id }),
      };
    }
    const mergeRequest = issuable.details.mergeRequest;
    return {
      ...common,
      type: 'MergeRequest',
      open: (OPEN_STATES as readonly string[]).includes(mergeRequest.state),
      closed: mergeRequest.state === 'closed',
      title: mergeRequest.title,
      assigneeId: mergeRequest.assignee_id,
      milestoneId: mergeRequest.milestone_id,
      mayUpdate: mayUpdateMergeRequest(standing, mergeRequest),
      mayAdmin: can(standing, 'admin_merge_request'),
      hasPendingTodo: await hasPendingTodo(this.ctx.db, caller.id, {
        projectId: project.id,
        targetType: 'MergeRequest',
        targetId: mergeRequest.id,
      }),
      workInProgress: isWorkInProgress(mergeRequest.title),
    };
  }

  /** The project's labels and milestones, and users by username: what command arguments name. */
  private async vocabulary(projectId: number): Promise<Vocabulary> {
    const db = this.ctx.db;
    const [labels, milestones] = await Promise.all([
      db.selectFrom('labels').select(['id', 'title']).where('project_id', '=', projectId).orderBy('id').execute(),
      db.selectFrom('milestones').select(['id', 'iid', 'title', 'state']).where('project_id', '=', projectId).orderBy('id').execute(),
    ]);
    return {
      labels,
      milestones,
      userId: async (username) => (await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst())?.id,
    };
  }
}

/** What a command in the description of an issuable being created sees: nothing persisted, nothing to close or remove. */
function newTarget(type: Target['type'], mayAdmin: boolean, title: string): Target {
  return {
    type,
    persisted: false,
    open: false,
    closed: false,
    title,
    assigneeId: null,
    milestoneId: null,
    labelIds: [],
    mayUpdate: false,
    mayAdmin,
    hasPendingTodo: false,
    subscribed: false,
  };
}

function labelIdsOf(titles: string[], vocabulary: Vocabulary): number[] {
  return titles.flatMap((title) => vocabulary.labels.filter((label) => label.title === title).map((label) => label.id));
}

/**
 * The labels an issuable ends with, as titles (what the update services take), or undefined when
 * no command touched them: 8.12's order, the replacement, then additions, then removals, starting
 * from the labels given in the same request or else those it carries.
 */
function labelsAfter(
  changes: CommandsChanges,
  given: string[] | undefined,
  currentIds: number[],
  vocabulary: Vocabulary,
): string[] | undefined {
  if (!changes.label_ids && !changes.add_label_ids && !changes.remove_label_ids) return undefined;
  const titleOf = new Map(vocabulary.labels.map((label) => [label.id, label.title]));
  let titles = changes.label_ids ? changes.label_ids.map((id) => titleOf.get(id)!) : (given ?? currentIds.map((id) => titleOf.get(id)!));
  titles = [...new Set([...titles, ...(changes.add_label_ids ?? []).map((id) => titleOf.get(id)!)])];
  const removed = new Set((changes.remove_label_ids ?? []).map((id) => titleOf.get(id)));
  return titles.filter((title) => !removed.has(title));
}

/** The changes joined to an issue's attributes; a command wins over the same field given beside it (8.12's `params.merge!`). */
function mergeIssueChanges(
  attributes: IssueAttributes,
  changes: CommandsChanges,
  currentLabelIds: number[],
  vocabulary: Vocabulary,
): IssueAttributes {
  return {
    ...attributes,
    stateEvent: changes.state_event ?? attributes.stateEvent,
    title: changes.title ?? attributes.title,
    assigneeId: changes.assignee_id !== undefined ? changes.assignee_id : attributes.assigneeId,
    milestoneId: changes.milestone_id !== undefined ? changes.milestone_id : attributes.milestoneId,
    labels: labelsAfter(changes, attributes.labels, currentLabelIds, vocabulary) ?? attributes.labels,
    dueDate: changes.due_date !== undefined ? changes.due_date : attributes.dueDate,
  };
}

/** The same for a merge request, whose `/wip` adds or takes away the `WIP:` mark of the title it ends with. */
function mergeMergeRequestChanges(
  attributes: MergeRequestAttributes,
  changes: CommandsChanges,
  currentLabelIds: number[],
  vocabulary: Vocabulary,
  currentTitle: string,
): MergeRequestAttributes {
  let title = changes.title ?? attributes.title;
  if (changes.wip_event === 'wip') title = `WIP: ${title ?? currentTitle}`;
  if (changes.wip_event === 'unwip') title = wiplessTitle(title ?? currentTitle);
  return {
    ...attributes,
    stateEvent: changes.state_event ?? attributes.stateEvent,
    title,
    assigneeId: changes.assignee_id !== undefined ? changes.assignee_id : attributes.assigneeId,
    milestoneId: changes.milestone_id !== undefined ? changes.milestone_id : attributes.milestoneId,
    labels: labelsAfter(changes, attributes.labels, currentLabelIds, vocabulary) ?? attributes.labels,
  };
}
