import type { Services } from '../../services/index';

/** What the runner API v4's routes are given: the services they call and how long a job request may be held. */
export interface RunnerV4Deps {
  services: Pick<Services, 'runnerRegistration' | 'buildRequests'>;
  /** `RUNNER_POLL_TIMEOUT_MS`. */
  pollTimeoutMs: number;
}
