import { runInChild } from './child-load';
import { fileURLToPath } from 'node:url';
import type { LoadPlan, LoadReport } from './runner-client';

const client = fileURLToPath(new URL('./runner-client.ts', import.meta.url));

/**
 * Runs one load plan in a child process (`runner-client.ts`), so that the load generator never
 * shares the server's event loop, and answers its report.
 */
export function runLoad(plan: LoadPlan): Promise<LoadReport> {
  // The plan holds a few hundred tokens at most: argv carries it.
  return runInChild(client, plan);
}
