import type { Services } from '../../services/index';

/** What the runner API's routes are given: the services they call, nothing else (no presenter: runners get no URLs). */
export interface RunnerApiDeps {
  services: Pick<Services, 'runnerRegistration' | 'buildRequests' | 'triggers'>;
}
