import type { CiJob } from '../yaml/types';

/** A build's `options` as GitLab 8.12 stored them and runners receive them (§2.3.2): only the keys the job has. */
export interface BuildOptions {
  image?: string;
  services?: string[];
  artifacts?: CiJob['artifacts'];
  cache?: CiJob['cache'];
  dependencies?: string[];
  after_script?: string[];
  environment?: { name: string; url?: string };
  /* Later GitLab's keys, read by processing (`needs`), auto-retry (`retry`), the payload (`job_timeout`), auto-cancel (`interruptible`) and delays (`start_in`). */
  needs?: CiJob['needs'];
  retry?: CiJob['retry'];
  job_timeout?: number;
  interruptible?: boolean;
  /** `when: delayed`'s wait as written, read by processing when the job's turn comes (GitLab's `options[:start_in]`). */
  start_in?: string;
}

export function jobOptions(job: CiJob): BuildOptions {
  const options: BuildOptions = {};
  if (job.image !== null) options.image = job.image;
  if (job.services !== null) options.services = job.services;
  if (job.artifacts !== null) options.artifacts = job.artifacts;
  if (job.cache !== null) options.cache = job.cache;
  if (job.dependencies !== null) options.dependencies = job.dependencies;
  if (job.afterScript !== null) options.after_script = job.afterScript;
  if (job.environment !== null)
    options.environment =
      job.environment.url === undefined ? { name: job.environment.name } : { name: job.environment.name, url: job.environment.url };
  if (job.needs !== null) options.needs = job.needs;
  if (job.retry !== null) options.retry = job.retry;
  if (job.timeout !== null) options.job_timeout = job.timeout;
  if (job.interruptible !== null) options.interruptible = job.interruptible;
  if (job.startIn !== null) options.start_in = job.startIn;
  return options;
}
