import type { JobHandlers, NotificationEvent, OutgoingMail } from '../../jobs/kinds';
import type { ServiceContext } from '../context';
import { findProject } from '../projects/queries';
import type { Project } from '../projects/types';
import { mentionedUserIds } from '../todos/recipients';
import { textOf } from '../notify';
import type { EventName } from './levels';
import { addressesOf, effectiveSettings, readSetting } from './queries';
import { readersOf, recipientsOf, relabelRecipients, type Recipient, type Target } from './recipients';
import { NOTIFICATION_REASON, projectUrl, render, type MailContent } from './mails';
import { Mailer } from './delivery';

/**
 * The background work of e-mail: `notifications.notify` works out who hears of a change and queues
 * one `email.deliver` per recipient (in one transaction: all or none), which the queue retries with
 * growing delays while the SMTP server is away, and gives up after JOB_MAX_ATTEMPTS.
 */
export function notificationJobs(ctx: ServiceContext): Pick<JobHandlers, 'notifications.notify' | 'email.deliver'> {
  const mailer = new Mailer(ctx.config);
  return {
    'notifications.notify': async (event) => {
      const mails = await mailsFor(ctx, event);
      await ctx.jobs.enqueueMany('email.deliver', mails);
    },
    'email.deliver': (mail, signal) => mailer.send(mail, signal),
  };
}

async function mailsFor(ctx: ServiceContext, event: NotificationEvent): Promise<OutgoingMail[]> {
  switch (event.kind) {
    case 'note.new':
      return noteMails(ctx, event.noteId);
    case 'pipeline.failed':
      return pipelineMails(ctx, event.pipelineId);
    case 'key.new':
      return keyMails(ctx, event.keyId);
    case 'issue.relabel':
    case 'merge_request.relabel':
      return relabelMails(ctx, event);
    case 'issue.move':
      return moveMails(ctx, event);
    default:
      return targetMails(ctx, event);
  }
}

type TargetEvent = Exclude<NotificationEvent, { kind: 'note.new' | 'pipeline.failed' | 'key.new' }>;

async function loadTarget(ctx: ServiceContext, event: TargetEvent): Promise<Target | undefined> {
  if ('issueId' in event) {
    const row = await ctx.db.selectFrom('issues').selectAll().where('id', '=', event.issueId).executeTakeFirst();
    const project = row && (await findProject(ctx.db, row.project_id));
    return row && project ? { type: 'Issue', project, row } : undefined;
  }
  const row = await ctx.db.selectFrom('merge_requests').selectAll().where('id', '=', event.mergeRequestId).executeTakeFirst();
  const project = row && (await findProject(ctx.db, row.target_project_id));
  return row && project ? { type: 'MergeRequest', project, row } : undefined;
}

async function targetMails(ctx: ServiceContext, event: TargetEvent): Promise<OutgoingMail[]> {
  const target = await loadTarget(ctx, event);
  if (!target) return [];
  const actor = await userOf(ctx, event.actorId);
  const noun = event.kind.split('.')[1];
  const suffix = target.type === 'Issue' ? 'issue' : 'merge_request';
  const verb = noun === 'mentions' ? 'new' : noun;
  // An automatic merge set is no event a `custom` level chooses.
  const eventName = noun === 'merge_when_build_succeeds' ? null : (`${verb}_${suffix}` as EventName);
  let mentioned: number[] = [];
  if (noun === 'mentions' || noun === 'new') {
    const now = actor ? await mentionedUserIds(ctx.db, textOf(target.row), target.project, actor) : [];
    const before =
      'previousText' in event && actor ? new Set(await mentionedUserIds(ctx.db, event.previousText, target.project, actor)) : new Set();
    mentioned = now.filter((id) => !before.has(id));
    if (noun === 'mentions' && mentioned.length === 0) return [];
  }
  let recipients = await recipientsOf(ctx.db, {
    target,
    event: eventName,
    actorId: event.actorId,
    mentioned,
    previousAssigneeId: 'previousAssigneeId' in event ? event.previousAssigneeId : undefined,
  });
  if (noun === 'mentions') recipients = recipients.filter((recipient) => mentioned.includes(recipient.userId));
  if (recipients.length === 0) return [];
  const assignee = target.row.assignee_id === null ? undefined : await userOf(ctx, target.row.assignee_id);
  const who = actor?.name ?? 'Someone';
  const lines: Record<string, string[]> = {
    new: [`${who} created ${describe(target)}.`, ...assigneeLine(assignee), '', target.row.description ?? ''],
    mentions: [`${who} mentioned you in ${describe(target)}.`, '', target.row.description ?? ''],
    close: [`${describe(target, true)} was closed by ${who}.`],
    reopen: [`${describe(target, true)} was reopened by ${who}.`],
    merge: [`${describe(target, true)} was merged by ${who}.`],
    reassign: [`${who} reassigned ${describe(target)}.`, `Assignee changed to ${assignee?.name ?? 'Unassigned'}.`],
    merge_when_build_succeeds: [`${who} set ${describe(target)} to be merged automatically when the build succeeds.`],
  };
  return addressed(ctx, recipients, {
    subject: subjectOf(target),
    lines: lines[noun] ?? [],
    url: targetUrl(ctx, target),
    threadId: threadOf(ctx, target),
  });
}

/** Labels added to an issue or merge request, to those subscribed to one of them (8.12's `relabeled_*_email`). */
async function relabelMails(
  ctx: ServiceContext,
  event: Extract<NotificationEvent, { kind: 'issue.relabel' | 'merge_request.relabel' }>,
): Promise<OutgoingMail[]> {
  const target = await loadTarget(ctx, event);
  if (!target) return [];
  const recipients = await relabelRecipients(ctx.db, target, event.labelIds, event.actorId);
  if (recipients.length === 0) return [];
  const labels = await ctx.db.selectFrom('labels').select('title').where('id', 'in', event.labelIds).orderBy('title').execute();
  const names = labels.map((label) => label.title).join(', ');
  const who = (await userOf(ctx, event.actorId))?.name ?? 'Someone';
  const plural = labels.length === 1 ? '' : 's';
  return addressed(
    ctx,
    recipients,
    {
      subject: subjectOf(target),
      lines: [`${who} added the label${plural} ${names} to ${describe(target)}.`, '', target.row.title],
      url: targetUrl(ctx, target),
      threadId: threadOf(ctx, target),
    },
    `you are subscribed to the label${plural} ${names}`,
  );
}

/**
 * An issue moved to another project, to those who hear of the original's changes (8.12's
 * `issue_moved`) and may read the new one: the mail tells where it went.
 */
async function moveMails(ctx: ServiceContext, event: Extract<NotificationEvent, { kind: 'issue.move' }>): Promise<OutgoingMail[]> {
  const [original, moved] = await Promise.all([
    loadTarget(ctx, event),
    loadTarget(ctx, { kind: 'issue.new', issueId: event.newIssueId, actorId: event.actorId }),
  ]);
  if (!original || !moved) return [];
  const recipients = await recipientsOf(ctx.db, { target: original, event: null, actorId: event.actorId, mentioned: [] });
  const readers = new Set(
    await readersOf(
      ctx.db,
      moved,
      recipients.map((recipient) => recipient.userId),
    ),
  );
  const who = (await userOf(ctx, event.actorId))?.name ?? 'Someone';
  const newUrl = targetUrl(ctx, moved);
  return addressed(
    ctx,
    recipients.filter((recipient) => readers.has(recipient.userId)),
    {
      subject: subjectOf(original),
      lines: [`${describe(original, true)} was moved to another project by ${who}.`, `New issue location: ${newUrl}`],
      url: newUrl,
      threadId: threadOf(ctx, original),
    },
  );
}

async function noteMails(ctx: ServiceContext, noteId: number): Promise<OutgoingMail[]> {
  const note = await ctx.db.selectFrom('notes').selectAll().where('id', '=', noteId).executeTakeFirst();
  if (!note || note.author_id === null || note.noteable_id === null) return [];
  const target =
    note.noteable_type === 'Issue'
      ? await loadTarget(ctx, { kind: 'issue.new', issueId: note.noteable_id, actorId: note.author_id })
      : note.noteable_type === 'MergeRequest'
        ? await loadTarget(ctx, { kind: 'merge_request.new', mergeRequestId: note.noteable_id, actorId: note.author_id })
        : undefined;
  const author = await userOf(ctx, note.author_id);
  if (!target || !author) return [];
  const mentioned = await mentionedUserIds(ctx.db, note.note, target.project, author);
  const recipients = await recipientsOf(ctx.db, { target, event: 'new_note', actorId: author.id, mentioned });
  return addressed(ctx, recipients, {
    subject: subjectOf(target),
    lines: [`${author.name} commented on ${describe(target)}:`, '', note.note],
    url: `${targetUrl(ctx, target)}#note_${note.id}`,
    threadId: threadOf(ctx, target),
  });
}

/** A failed pipeline, to whoever pushed it (8.12's pipeline mails), unless their level is `disabled`. */
async function pipelineMails(ctx: ServiceContext, pipelineId: number): Promise<OutgoingMail[]> {
  const pipeline = await ctx.db.selectFrom('ci_pipelines').selectAll().where('id', '=', pipelineId).executeTakeFirst();
  if (!pipeline || pipeline.user_id === null) return [];
  const project = await findProject(ctx.db, pipeline.project_id);
  if (!project) return [];
  const settings = await effectiveSettings(ctx.db, [pipeline.user_id], project);
  const setting = settings.get(pipeline.user_id)!;
  if (setting.level === 'disabled') return [];
  const url = `${projectUrl(ctx.config.externalUrl, project)}/pipelines/${pipeline.id}`;
  return addressed(ctx, [{ userId: pipeline.user_id, setting }], {
    subject: `${project.name} | Pipeline #${pipeline.id} has failed for ${pipeline.ref ?? ''} | ${pipeline.sha.slice(0, 8)}`,
    lines: [`Your pipeline #${pipeline.id} has failed.`, `Branch: ${pipeline.ref ?? ''}`, `Commit: ${pipeline.sha}`],
    url,
  });
}

/** A new SSH key, to its owner whatever their level: a security notice, as 8.12 sent it. */
async function keyMails(ctx: ServiceContext, keyId: number): Promise<OutgoingMail[]> {
  const key = await ctx.db.selectFrom('keys').selectAll().where('id', '=', keyId).executeTakeFirst();
  if (!key || key.user_id === null) return [];
  const setting = await readSetting(ctx.db, key.user_id, 'Global', 0);
  return addressed(
    ctx,
    [{ userId: key.user_id, setting }],
    {
      subject: 'SSH key was added to your account',
      lines: [
        `A new public SSH key was added to your account:`,
        '',
        `title: ${key.title}`,
        `fingerprint: ${key.fingerprint}`,
        '',
        'If this key was added in error, you can remove it.',
      ],
      url: `${ctx.config.externalUrl}/profile/keys`,
    },
    'a new SSH key was added to your account',
  );
}

async function addressed(
  ctx: ServiceContext,
  recipients: Recipient[],
  content: MailContent,
  why = NOTIFICATION_REASON,
): Promise<OutgoingMail[]> {
  const chosen = new Map(recipients.map((recipient) => [recipient.userId, recipient.setting]));
  const addresses = await addressesOf(ctx.db, [...chosen.keys()], chosen);
  const mail = render(content, ctx.config.externalUrl, why);
  return [...addresses.values()].map((to) => ({ to, ...mail }));
}

async function userOf(ctx: ServiceContext, id: number) {
  return ctx.db.selectFrom('users').select(['id', 'name', 'admin', 'external']).where('id', '=', id).executeTakeFirst();
}

const assigneeLine = (assignee: { name: string } | undefined) => (assignee ? [`Assignee: ${assignee.name}`] : []);

function describe(target: Target, capital = false): string {
  const text = target.type === 'Issue' ? `issue #${target.row.iid}` : `merge request !${target.row.iid}`;
  return capital ? text[0].toUpperCase() + text.slice(1) : text;
}

/** 8.12's subjects: `Project | Title (#iid)` and `Project | Title (!iid)`. */
function subjectOf(target: Target): string {
  const reference = target.type === 'Issue' ? `#${target.row.iid}` : `!${target.row.iid}`;
  return `${target.project.name} | ${target.row.title} (${reference})`;
}

function targetUrl(ctx: ServiceContext, target: Target): string {
  const kind = target.type === 'Issue' ? 'issues' : 'merge_requests';
  return `${projectUrl(ctx.config.externalUrl, target.project as Project)}/${kind}/${target.row.iid}`;
}

function threadOf(ctx: ServiceContext, target: Target): string {
  const kind = target.type === 'Issue' ? 'issue' : 'merge_request';
  return `<${kind}_${target.row.id}@${new URL(ctx.config.externalUrl).hostname}>`;
}
