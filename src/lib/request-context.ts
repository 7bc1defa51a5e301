import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request a piece of work was done for, known below the doors without being passed down:
 * a job enqueued while a request is handled carries its id (`jobs/queue.ts`), and so does a job
 * enqueued while that job runs. The HTTP server enters it for each request (`http/request-id.ts`),
 * the job worker for each job.
 */
const current = new AsyncLocalStorage<{ requestId: string }>();

/** The id of the request (or of the job's request) this code runs for, if any. */
export function currentRequestId(): string | undefined {
  return current.getStore()?.requestId;
}

/** Runs `work` as done for `requestId` (nothing changes without one). */
export function runForRequest<T>(requestId: string | undefined, work: () => T): T {
  return requestId === undefined ? work() : current.run({ requestId }, work);
}
