import type { Config } from '../config';
import type { Db, DialectName } from '../db/index';
import type { SecretBox } from '../lib/secrets';
import type { JobQueue } from '../jobs/queue';
import type { Logger } from '../lib/logger';
import type { FileStore } from '../storage/index';
import type { RefsCache } from '../git/refs-cache';

/** What every service is given: the stores and settings, never HTTP. */
export interface ServiceContext {
  config: Config;
  db: Db;
  dialect: DialectName;
  secrets: SecretBox;
  jobs: JobQueue;
  /** Files beside the database: CI traces and artifacts. */
  files: FileStore;
  /** Branches and tags of recently read repositories, by refs version: the app's own, made beside the database. */
  refs: RefsCache;
  log: Logger;
}
