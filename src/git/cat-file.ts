import { GitCommandError } from './errors';
import { PooledGitProcess, ProcessPool, type ProcessPoolStats } from './process-pool';

export type ObjectType = 'commit' | 'tree' | 'blob' | 'tag';

export interface ObjectInfo {
  oid: string;
  type: ObjectType;
  size: number;
}

export interface GitObject extends ObjectInfo {
  content: Buffer;
}

type Kind = 'info' | 'contents';

interface Pending {
  kind: Kind;
  resolve: (value: GitObject | undefined) => void;
  reject: (error: Error) => void;
}

const HEADER = /^([0-9a-f]{40}|[0-9a-f]{64}) (commit|tree|blob|tag) (\d+)$/;
const EMPTY = Buffer.alloc(0);
const ARGS = ['cat-file', '--batch-command'];

/**
 * One long-lived `git cat-file --batch-command` (both `info` and `contents` in one process).
 * Requests are written as they come and answered in order, so callers pipeline freely.
 */
class BatchProcess extends PooledGitProcess {
  private readonly queue: Pending[] = [];
  private headerParts: Buffer[] = [];
  private body: Buffer | undefined;
  private bodyFilled = 0;
  private current: ObjectInfo | undefined;
  private awaitingNewline = false;

  constructor(repoPath: string, idleMs: number, onGone: (process: PooledGitProcess) => void) {
    super(repoPath, ARGS, idleMs, onGone);
  }

  request(kind: Kind, rev: string): Promise<GitObject | undefined> {
    return new Promise((resolve, reject) => {
      this.busy();
      this.queue.push({ kind, resolve, reject });
      this.child.stdin.write(`${kind} ${rev}\n`);
    });
  }

  protected onData(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.body) {
        const taken = Math.min(this.body.length - this.bodyFilled, chunk.length - offset);
        chunk.copy(this.body, this.bodyFilled, offset, offset + taken);
        this.bodyFilled += taken;
        offset += taken;
        if (this.bodyFilled === this.body.length) this.awaitingNewline = true;
        if (!this.awaitingNewline) continue;
      }
      if (this.awaitingNewline) {
        if (offset >= chunk.length) return;
        offset += 1;
        this.finish({ ...this.current!, content: this.body ?? EMPTY });
        continue;
      }
      const newline = chunk.indexOf(10, offset);
      if (newline === -1) {
        this.headerParts.push(chunk.subarray(offset));
        return;
      }
      const line = Buffer.concat([...this.headerParts, chunk.subarray(offset, newline)]).toString('utf8');
      this.headerParts = [];
      offset = newline + 1;
      this.onHeader(line);
    }
  }

  private onHeader(line: string): void {
    const pending = this.queue[0];
    const match = HEADER.exec(line);
    if (!pending) return this.protocolError(`unexpected output: ${line}`);
    if (!match) {
      if (line.endsWith(' missing') || line.endsWith(' ambiguous')) return this.finish(undefined);
      return this.protocolError(`unexpected header: ${line}`);
    }
    this.current = { oid: match[1], type: match[2] as ObjectType, size: Number(match[3]) };
    if (pending.kind === 'info') return this.finish({ ...this.current, content: EMPTY });
    this.body = Buffer.allocUnsafe(this.current.size);
    this.bodyFilled = 0;
    if (this.current.size === 0) this.awaitingNewline = true;
  }

  private finish(result: GitObject | undefined): void {
    this.body = undefined;
    this.current = undefined;
    this.awaitingNewline = false;
    this.queue.shift()?.resolve(result);
    if (this.queue.length === 0) this.idle();
  }

  protected onExit(code: number | null): void {
    this.failAll(new GitCommandError(ARGS, code, this.stderr || 'cat-file exited'));
  }

  private protocolError(message: string): void {
    this.failAll(new GitCommandError(ARGS, null, message));
    this.kill();
  }

  private failAll(error: Error): void {
    for (const pending of this.queue.splice(0)) pending.reject(error);
    this.body = undefined;
    this.awaitingNewline = false;
    this.headerParts = [];
  }
}

export interface CatFilePoolOptions {
  /** Processes kept at most; the least recently used one is closed first. */
  maxProcesses?: number;
  /** An unused process ends after this long. */
  idleMs?: number;
}

/**
 * Long-lived `cat-file` processes, one per recently used repository (as Gitaly's and Gitea's
 * catfile caches): a read costs a pipe round trip (~75 µs) instead of a process (~2 ms).
 * A process that dies is replaced on the next request; requests it held are rejected.
 */
export class CatFilePool {
  private readonly processes: ProcessPool<BatchProcess>;

  constructor(options: CatFilePoolOptions = {}) {
    const idleMs = options.idleMs ?? 10_000;
    this.processes = new ProcessPool(options.maxProcesses ?? 64, (repoPath, onGone) => new BatchProcess(repoPath, idleMs, onGone));
  }

  /** The object a revision names (`<sha>`, `<ref>`, `<commit>:<path>`, `<rev>^{commit}` …), or undefined. */
  read(repoPath: string, rev: string): Promise<GitObject | undefined> {
    return this.request(repoPath, 'contents', rev);
  }

  info(repoPath: string, rev: string): Promise<ObjectInfo | undefined> {
    return this.request(repoPath, 'info', rev).then((object) => object && { oid: object.oid, type: object.type, size: object.size });
  }

  /** Reads many objects in one pipelined exchange, in the order asked. */
  readMany(repoPath: string, revs: readonly string[]): Promise<Array<GitObject | undefined>> {
    return Promise.all(revs.map((rev) => this.read(repoPath, rev)));
  }

  /** Ends the repository's process (before the repository is deleted or replaced). */
  close(repoPath: string): void {
    this.processes.close(repoPath);
  }

  closeAll(): Promise<void> {
    return this.processes.closeAll();
  }

  /** Repositories with a live process, for diagnostics and tests. */
  active(): Array<{ repoPath: string; pid: number | undefined }> {
    return this.processes.active();
  }

  stats(): ProcessPoolStats {
    return this.processes.stats();
  }

  private request(repoPath: string, kind: Kind, rev: string): Promise<GitObject | undefined> {
    // One request per line: a newline would smuggle a second command in.
    if (rev === '' || /[\n\r\0]/.test(rev)) return Promise.resolve(undefined);
    return this.processes.get(repoPath).request(kind, rev);
  }
}
