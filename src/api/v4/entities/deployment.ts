import { Type, type Static } from '@sinclair/typebox';
import type { DeploymentDetails } from '../../../services/ci/environments/deployments';
import type { Project } from '../../../services/projects/types';
import { UserBasic, presentUserBasic } from '../../shared/entities/user';
import { Nullable, Timestamp } from '../../shared/schemas';
import type { Presenter } from '../../shared/types';
import { EnvironmentBasic, presentEnvironmentBasic } from './environment';
import { Job, presentJob } from './job';

/** GitLab 9–11's `Entities::Deployment`: `deployable` is the job that deployed (null once it is gone). */
export const Deployment = Type.Object({
  id: Type.Integer(),
  iid: Type.Integer(),
  ref: Type.String(),
  sha: Type.String(),
  created_at: Timestamp,
  user: Nullable(UserBasic),
  environment: EnvironmentBasic,
  deployable: Nullable(Job),
});

export function presentDeployment(
  { deployment, environment, user, deployable }: DeploymentDetails,
  project: Project,
  presenter: Presenter,
): Static<typeof Deployment> {
  return {
    id: deployment.id,
    iid: deployment.iid,
    ref: deployment.ref,
    sha: deployment.sha,
    created_at: deployment.created_at,
    user: user ? presentUserBasic(user, presenter) : null,
    environment: presentEnvironmentBasic(environment),
    deployable: deployable ? presentJob(deployable, project, presenter) : null,
  };
}
