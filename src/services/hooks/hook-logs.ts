import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { WebHookLogsTable } from '../../db/schema';
import type { ServiceContext } from '../context';
import { recordNotFound } from '../../errors';
import { now } from '../../lib/time';
import type { Hook } from './system-hooks';
import { postForAnswer } from './http-post';

export type HookLog = Selectable<WebHookLogsTable>;
/** A delivery as a list shows it: no request or response bodies. */
export type HookLogSummary = Pick<
  HookLog,
  'id' | 'hook_id' | 'trigger' | 'response_status' | 'internal_error_message' | 'execution_duration_ms' | 'test' | 'created_at'
>;

/** What is kept of a delivery: the request body up to 64 KiB, the response's first 8 KiB. */
export const REQUEST_DATA_LIMIT = 64 * 1024;
export const RESPONSE_BODY_LIMIT = 8 * 1024;
/** A delivery is kept two days, and a hook keeps its last 100 at most. */
export const LOG_KEPT_MS = 2 * 24 * 60 * 60 * 1000;
export const LOGS_KEPT_PER_HOOK = 100;
/** How many a hook's page lists. */
const RECENT = 20;

/** What a delivery came to: the receiver's HTTP status, or why nothing was answered. */
export type HookOutcome = { delivered: true; status: number } | { delivered: false; reason: string };

export interface HookSend {
  hook: Hook;
  /** The `X-Gitlab-Event` header: `Push Hook`, `System Hook` … */
  event: string;
  payload: unknown;
  test: boolean;
  signal: AbortSignal;
}

/** A UTF-8 text cut at a byte bound, never inside a character. */
function bounded(text: string, limit: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= limit) return text;
  return bytes
    .subarray(0, limit)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
}

/** The URL as shown: a password in it is masked, as the token header is. */
function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '*****';
    return parsed.toString();
  } catch {
    return url;
  }
}

/**
 * POSTs one event to one hook and records the delivery (GitLab's `WebHookService` with its
 * `WebHookLog`): the token is sent but recorded masked. A hook deleted while its delivery was
 * under way leaves no log (its foreign key refuses the row).
 */
export async function sendToHook(ctx: ServiceContext, { hook, event, payload, test, signal }: HookSend): Promise<HookOutcome> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Gitlab-Event': event };
  if (hook.token) headers['X-Gitlab-Token'] = hook.token;
  const body = JSON.stringify(payload);
  const started = performance.now();
  let outcome: HookOutcome;
  let responseBody: string | null = null;
  try {
    const answer = await postForAnswer(new URL(hook.url), {
      headers,
      body,
      verifyTls: hook.enable_ssl_verification === 1,
      signal: AbortSignal.any([signal, AbortSignal.timeout(ctx.config.hookTimeoutMs)]),
      bodyLimit: RESPONSE_BODY_LIMIT,
    });
    outcome = { delivered: true, status: answer.status };
    responseBody = answer.body;
  } catch (error) {
    outcome = { delivered: false, reason: error instanceof Error ? error.message : String(error) };
  }
  const recorded = { ...headers, ...(hook.token ? { 'X-Gitlab-Token': '[REDACTED]' } : {}) };
  await ctx.db
    .insertInto('web_hook_logs')
    .values({
      hook_id: hook.id,
      trigger: event,
      url: shownUrl(hook.url),
      request_headers: JSON.stringify(recorded),
      request_data: bounded(body, REQUEST_DATA_LIMIT),
      response_status: outcome.delivered ? outcome.status : null,
      response_body: responseBody,
      internal_error_message: outcome.delivered ? null : bounded(outcome.reason, 1024),
      execution_duration_ms: Math.round(performance.now() - started),
      test: test ? 1 : 0,
      created_at: now(),
    })
    .execute()
    .catch((error) => ctx.log.warn({ err: error, hookId: hook.id }, 'hook delivery not logged'));
  return outcome;
}

/** A hook's recorded deliveries (its "Recent deliveries"), read by whoever may edit the hook. */
export class HookLogsService {
  constructor(private readonly ctx: ServiceContext) {}

  recent(hookId: number): Promise<HookLogSummary[]> {
    return this.ctx.db
      .selectFrom('web_hook_logs')
      .select(['id', 'hook_id', 'trigger', 'response_status', 'internal_error_message', 'execution_duration_ms', 'test', 'created_at'])
      .where('hook_id', '=', hookId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(RECENT)
      .execute();
  }

  /** One delivery of the hook; `404 Not found` for another hook's. */
  async find(hookId: number, logId: number): Promise<HookLog> {
    const log = await this.ctx.db
      .selectFrom('web_hook_logs')
      .selectAll()
      .where('id', '=', logId)
      .where('hook_id', '=', hookId)
      .executeTakeFirst();
    if (!log) throw recordNotFound();
    return log;
  }

  /** The sweep: deliveries older than two days go, and each hook's beyond its last 100. */
  async prune(at: number = Date.now()): Promise<void> {
    const cutoff = new Date(at - LOG_KEPT_MS).toISOString();
    await this.ctx.db.deleteFrom('web_hook_logs').where('created_at', '<', cutoff).execute();
    await this.ctx.db
      .deleteFrom('web_hook_logs')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom(
            eb
              .selectFrom('web_hook_logs')
              .select(['id', sql<number>`row_number() over (partition by hook_id order by created_at desc, id desc)`.as('position')])
              .as('ranked'),
          )
          .select('ranked.id')
          .where('ranked.position', '>', LOGS_KEPT_PER_HOOK),
      )
      .execute();
  }
}
