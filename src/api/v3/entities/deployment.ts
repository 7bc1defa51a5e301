import { Type, type Static } from '@sinclair/typebox';
import type { DeploymentDetails } from '../../../services/ci/environments/deployments';
import { Nullable, Timestamp, type Presenter } from './common';
import { UserBasic, presentUserBasic } from '../../shared/entities/user';
import { EnvironmentBasic, presentEnvironmentBasic } from './environment';
import { Build, presentBuild } from './build';

/**
 * GitLab 8.12's `Entities::Deployment`: `user` is the user summary (`UserBasic`), `deployable` the
 * full Build entity (whose user is the full User, `location` included). Both are null once their
 * user or build is gone.
 */
export const Deployment = Type.Object({
  id: Type.Integer(),
  iid: Type.Integer(),
  ref: Type.String(),
  sha: Type.String(),
  created_at: Timestamp,
  user: Nullable(UserBasic),
  environment: EnvironmentBasic,
  deployable: Nullable(Build),
});

export function presentDeployment(
  { deployment, environment, user, deployable }: DeploymentDetails,
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
    deployable: deployable ? presentBuild(deployable, presenter) : null,
  };
}
