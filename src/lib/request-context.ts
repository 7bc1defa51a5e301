import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request a piece of work was done for, known below the doors without being passed down:
 * a job enqueued while a request is handled carries its id (`jobs/queue.ts`), and so does a job
 * enqueued while that job runs. The HTTP server opens a scope for each request that may change
 * something (`http/request-id.ts`), the job worker one for each job.
 *
 * On Node 20 the storage costs every promise made while it is on (Forge's `GET /user` took 40 %
 * more CPU), so it is on only while a scope is open and turned off when the last one closes:
 * reads, the bulk of the traffic, pay nothing unless they overlap a change or a job.
 */
const current = new AsyncLocalStorage<{ requestId: string }>();
let openScopes = 0;

/** The id of the request (or of the job's request) this code runs for, if any. */
export function currentRequestId(): string | undefined {
  return current.getStore()?.requestId;
}

/** One scope fewer; the storage goes off with the last. */
function closeScope(): void {
  if (--openScopes === 0) current.disable();
}

/**
 * Runs `start` (and whatever it sets going) for `requestId` until the returned function is called:
 * for a request, whose work goes on through events after `start` returns.
 */
export function openRequestScope(requestId: string, start: () => void): () => void {
  openScopes++;
  let open = true;
  const close = () => {
    if (open) closeScope();
    open = false;
  };
  try {
    current.run({ requestId }, start);
  } catch (error) {
    close();
    throw error;
  }
  return close;
}

/**
 * Runs a job for the request that caused it, or for none: never for whichever request happened to
 * wake the worker up (its timers and wake-ups are made inside requests).
 */
export async function runForRequest<T>(requestId: string | undefined, work: () => Promise<T>): Promise<T> {
  if (requestId === undefined) return current.exit(work);
  openScopes++;
  try {
    return await current.run({ requestId }, work);
  } finally {
    closeScope();
  }
}
