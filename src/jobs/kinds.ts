import type { RefUpdate } from '../git/ref-update';

/**
 * Every kind of background job and the payload it carries, in one place: `enqueue` and the
 * handlers are type-checked against it. Payloads are stored as JSON, so they hold plain data only.
 * The handlers live with the domain that owns the work (`services/<domain>/jobs.ts`).
 */
export interface JobKinds {
  /** POST one event to one project or system hook. */
  'hook.deliver': HookDelivery;
  /** Clone `import_url` into a new project's repository. */
  'repository.import': { projectId: number; url: string };
  /** Delete a removed project's repository. */
  'repository.remove': { projectId: number };
  /** Events, hooks (and later CI) for the ref updates of one accepted push. */
  'push.process': PushJob;
  /** Build the `Build Hook` or `Pipeline Hook` payload of one CI change and queue its deliveries. */
  'ci.hook': CiHookJob;
  /** Work out whether merge requests can be merged (`merge_status`), with `git merge-tree`. */
  'merge_requests.check': { mergeRequestIds: number[] };
  /** What a push does to the merge requests of the pushed branches: versions, checks, manual merges. */
  'merge_requests.refresh': PushJob;
  /** What a pipeline's new status does to the merge requests of its branch: automatic merges, build_failed todos. */
  'merge_requests.pipeline': { pipelineId: number; status: string };
  /** Close the issues a merged merge request closes, as the user who merged it. */
  'merge_requests.close_issues': { mergeRequestId: number; userId: number };
  /** Work out who hears of a change by e-mail (8.12's `NotificationService`) and queue one mail each. */
  'notifications.notify': NotificationEvent;
  /** Hand one rendered mail to the SMTP server. */
  'email.deliver': OutgoingMail;
}

/**
 * A change that may send e-mail, as its flow saw it: ids only, the rest is read when the job runs.
 * `actorId` is who made the change (never mailed about it).
 */
export type NotificationEvent =
  | { kind: 'issue.new' | 'issue.close' | 'issue.reopen'; issueId: number; actorId: number }
  | { kind: 'issue.reassign'; issueId: number; actorId: number; previousAssigneeId: number | null }
  /** The title or description changed: those newly mentioned hear of it. */
  | { kind: 'issue.mentions'; issueId: number; actorId: number; previousText: string }
  | {
      kind: 'merge_request.new' | 'merge_request.close' | 'merge_request.reopen' | 'merge_request.merge';
      mergeRequestId: number;
      actorId: number;
    }
  | { kind: 'merge_request.reassign'; mergeRequestId: number; actorId: number; previousAssigneeId: number | null }
  | { kind: 'merge_request.mentions'; mergeRequestId: number; actorId: number; previousText: string }
  /** Labels were added: their subscribers hear of it (8.12's `relabeled_*_email`). */
  | { kind: 'issue.relabel'; issueId: number; actorId: number; labelIds: number[] }
  | { kind: 'merge_request.relabel'; mergeRequestId: number; actorId: number; labelIds: number[] }
  /** The issue was moved to another project, as `newIssueId` (8.12's `issue_moved_email`). */
  | { kind: 'issue.move'; issueId: number; actorId: number; newIssueId: number }
  /** A merge was asked for once the head pipeline succeeds (8.12's `merge_when_build_succeeds_email`). */
  | { kind: 'merge_request.merge_when_build_succeeds'; mergeRequestId: number; actorId: number }
  | { kind: 'note.new'; noteId: number }
  | { kind: 'pipeline.failed'; pipelineId: number }
  | { kind: 'key.new'; keyId: number };

/** One mail to one address, rendered when its recipients were worked out. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Threads a target's mails together in mail readers (`In-Reply-To`/`References`). */
  threadId?: string;
}

export type JobKind = keyof JobKinds;

export interface HookDelivery {
  hookId: number;
  /** The `X-Gitlab-Event` header: `System Hook`, `Push Hook`, … */
  event: string;
  payload: unknown;
  /** A test delivery from an administrator's page (recorded as such). */
  test?: boolean;
}

/** One per accepted push (over git or through the API), enqueued after git took it. */
export interface PushJob {
  projectId: number;
  userId: number;
  updates: RefUpdate[];
}

/** A build or pipeline change that project hooks with `build_events` or `pipeline_events` hear of. */
export type CiHookJob = { kind: 'build'; buildId: number; status: string } | { kind: 'pipeline'; pipelineId: number; status: string };

/** Runs one job; `signal` aborts when the worker stops, so nothing outlives a shutdown. */
export type JobHandler<K extends JobKind> = (payload: JobKinds[K], signal: AbortSignal) => Promise<void>;

/** A handler for every kind: the composition root fails to compile when one is missing. */
export type JobHandlers = { [K in JobKind]: JobHandler<K> };
