import type { Socket } from 'node:net';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawnGit } from './run';

const STDERR_KEPT = 8192;

/**
 * One long-lived git process reading requests on stdin for one repository (`cat-file --batch-command`,
 * `diff-tree --stdin`). Subclasses speak the protocol; this keeps the process: an idle one never
 * keeps the server (or a test run) alive and ends after `idleMs` unused, a busy one does.
 */
export abstract class PooledGitProcess {
  protected readonly child: ChildProcessWithoutNullStreams;
  protected stderr = '';
  private idleTimer: NodeJS.Timeout | undefined;
  private closing = false;
  private working = false;
  readonly exited: Promise<void>;

  constructor(
    readonly repoPath: string,
    protected readonly args: string[],
    private readonly idleMs: number,
    onGone: (process: PooledGitProcess) => void,
  ) {
    this.child = spawnGit(repoPath, args);
    this.child.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => {
      if (this.stderr.length < STDERR_KEPT) this.stderr += chunk.toString('utf8');
    });
    this.child.stdin.on('error', () => {});
    this.exited = new Promise((resolve) => {
      const gone = (code: number | null) => {
        this.closing = true;
        onGone(this);
        this.onExit(code);
        resolve();
      };
      this.child.on('error', () => gone(null));
      this.child.on('close', gone);
    });
    this.setReferenced(false);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get isClosing(): boolean {
    return this.closing;
  }

  /** Work is pending: a new request waits behind it. */
  get isBusy(): boolean {
    return this.working;
  }

  /** Ends input: git answers what it was already asked, then exits. */
  close(): void {
    if (this.closing) return;
    this.closing = true;
    clearTimeout(this.idleTimer);
    // Whoever waits for the exit must not see the event loop run dry first.
    this.setReferenced(true);
    this.endInput();
  }

  kill(): void {
    this.closing = true;
    clearTimeout(this.idleTimer);
    this.setReferenced(true);
    this.child.kill();
  }

  /** Output from git's stdout, in order. */
  protected abstract onData(chunk: Buffer): void;

  /** The process is gone (exited, killed or never started): what it still holds must fail. */
  protected abstract onExit(code: number | null): void;

  /** Called by `close`; a subclass still owing requests may end its input later. */
  protected endInput(): void {
    this.child.stdin.end();
  }

  /** Work was handed to the process: it keeps the event loop alive until `idle`. */
  protected busy(): void {
    this.working = true;
    clearTimeout(this.idleTimer);
    this.setReferenced(true);
  }

  /** Nothing is pending: the process stops counting for the event loop and ends after `idleMs`. */
  protected idle(): void {
    this.working = false;
    if (this.closing) return;
    this.setReferenced(false);
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.close(), this.idleMs).unref();
  }

  private setReferenced(on: boolean): void {
    for (const handle of [this.child, this.child.stdin, this.child.stdout, this.child.stderr] as Array<
      { ref(): void; unref(): void } | Socket
    >) {
      if (on) handle.ref();
      else handle.unref();
    }
  }
}

/**
 * Long-lived processes, one per recently used repository (as Gitaly's and Gitea's catfile caches),
 * at most `maxProcesses`: the least recently used one is closed first. A process that is gone or
 * closing is replaced on the next request.
 */
export class ProcessPool<P extends PooledGitProcess> {
  private readonly processes = new Map<string, P>();
  private readonly counts = { started: 0, evicted: 0, waits: 0 };

  constructor(
    private readonly maxProcesses: number,
    private readonly start: (repoPath: string, onGone: (process: PooledGitProcess) => void) => P,
  ) {}

  /** The repository's live process, started when there is none. */
  get(repoPath: string): P {
    let process = this.processes.get(repoPath);
    if (process && !process.isClosing) {
      // Map order is the recency order.
      this.processes.delete(repoPath);
      this.processes.set(repoPath, process);
      if (process.isBusy) this.counts.waits++;
      return process;
    }
    process = this.start(repoPath, (gone) => {
      if (this.processes.get(gone.repoPath) === gone) this.processes.delete(gone.repoPath);
    });
    this.counts.started++;
    this.processes.set(repoPath, process);
    if (this.processes.size > this.maxProcesses) {
      this.counts.evicted++;
      this.close(this.processes.keys().next().value!);
    }
    return process;
  }

  /** Ends the repository's process (before the repository is deleted or replaced). */
  close(repoPath: string): void {
    const process = this.processes.get(repoPath);
    this.processes.delete(repoPath);
    process?.close();
  }

  async closeAll(): Promise<void> {
    const all = [...this.processes.values()];
    this.processes.clear();
    for (const process of all) process.close();
    await Promise.all(all.map((process) => process.exited));
  }

  /** Repositories with a live process, for diagnostics and tests. */
  active(): Array<{ repoPath: string; pid: number | undefined }> {
    return [...this.processes.values()].map((process) => ({ repoPath: process.repoPath, pid: process.pid }));
  }

  /** For metrics: live processes, and since the pool was made, processes started, closed to make room, and requests that waited behind another. */
  stats(): ProcessPoolStats {
    return { processes: this.processes.size, ...this.counts };
  }
}

export interface ProcessPoolStats {
  processes: number;
  started: number;
  evicted: number;
  waits: number;
}
