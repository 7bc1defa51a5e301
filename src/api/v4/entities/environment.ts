import { Type, type Static } from '@sinclair/typebox';
import type { EnvironmentRow } from '../../../services/ci/types';
import { environmentSlug } from '../../../services/ci/environments/rules';
import { Nullable } from '../../shared/schemas';
import { BasicProject } from './project';

/** GitLab 9–11's `Entities::EnvironmentBasic`, as a deployment shows its environment. */
export const EnvironmentBasic = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  external_url: Nullable(Type.String()),
});

/** GitLab 9–11's `Entities::Environment`: the basic shape, its project (the basic project) and its `state`. */
export const Environment = Type.Object({ ...EnvironmentBasic.properties, project: BasicProject, state: Type.String() });

export function presentEnvironmentBasic(environment: EnvironmentRow): Static<typeof EnvironmentBasic> {
  return { id: environment.id, name: environment.name, slug: environmentSlug(environment), external_url: environment.external_url };
}

export function presentEnvironment(environment: EnvironmentRow, project: Static<typeof BasicProject>): Static<typeof Environment> {
  return Object.assign(presentEnvironmentBasic(environment), { project, state: environment.state });
}
