import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { timedRequest } from './http';

/** One batch: `count` GET requests to `url`, one after the other on one kept-alive connection. */
interface Batch {
  url: string;
  headers?: Record<string, string>;
  count: number;
}

/** The batch's wall time, and the size of its last answer (body and header values). */
export interface BatchResult {
  wallMs: number;
  bytes: number;
}

type Answer = BatchResult | { error: string };

/**
 * A client in a process of its own that sends requests one after the other when asked, so that
 * what a request costs the server is measured without the client's own HTTP work (which grows
 * with what the answer carries: pagination headers, a larger body) in the same process.
 */
export class CostClient {
  private constructor(private readonly child: ChildProcess) {}

  static start(): CostClient {
    const script = fileURLToPath(import.meta.url);
    return new CostClient(fork(script, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Sends the batch and answers once every answer has been read; refuses on any status of 300 or more. */
  run(batch: Batch): Promise<BatchResult> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`cost client exited with ${code}`));
      this.child.once('exit', onExit);
      this.child.once('message', (answer: Answer) => {
        this.child.off('exit', onExit);
        if ('error' in answer) reject(new Error(answer.error));
        else resolve(answer);
      });
      this.child.send(batch);
    });
  }

  close(): void {
    this.child.disconnect();
  }
}

async function runBatch({ url, headers, count }: Batch): Promise<Answer> {
  const started = performance.now();
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const response = await timedRequest(url, { headers });
    if (response.status >= 300) return { error: `${url} answered ${response.status}` };
    bytes =
      response.body.length + Object.entries(response.headers).reduce((sum, [name, value]) => sum + name.length + String(value).length, 0);
  }
  return { wallMs: performance.now() - started, bytes };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.on('message', (batch: Batch) => {
    runBatch(batch).then(
      (answer) => process.send!(answer),
      (error: Error) => process.send!({ error: String(error.stack ?? error) }),
    );
  });
}
