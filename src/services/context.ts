import type { Config } from '../config';
import type { Db, DialectName } from '../db/index';
import type { SecretBox } from '../lib/secrets';
import type { JobQueue } from '../jobs/queue';
import type { Logger } from '../lib/logger';
import type { FileStore } from '../storage/index';
import type { RefsCache } from '../git/refs-cache';
import type { GitReader } from '../git/reader';
import type { RefLocks } from '../git/ref-lock';
import type { ChangeSignal } from '../lib/change-signal';

/** What every service is given: the stores and settings, never HTTP. */
export interface ServiceContext {
  config: Config;
  db: Db;
  dialect: DialectName;
  secrets: SecretBox;
  jobs: JobQueue;
  /** Files beside the database: CI traces and artifacts. */
  files: FileStore;
  /** git's long-lived processes and caches of what never changes: the app's own, closed with it. */
  git: GitReader;
  /** Branches and tags of recently read repositories, by refs version: the app's own, made beside the database. */
  refs: RefsCache;
  /** Writers of one ref in this process queue here. */
  refLocks: RefLocks;
  log: Logger;
  /**
   * Bumped after a commit that made builds pending (`services/ci/runners/queue-signal.ts`): runners
   * long-polling for a job in this process wait on it instead of querying the queue.
   */
  buildQueue: ChangeSignal;
}
