import { Type, type Static } from '@sinclair/typebox';
import type { EnvironmentRow } from '../../../services/ci/types';
import { Nullable } from './common';
import { Project, type ProjectShape } from './project';

/** GitLab 8.12's `Entities::EnvironmentBasic`, as a deployment shows its environment. */
export const EnvironmentBasic = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  external_url: Nullable(Type.String()),
});

/** GitLab 8.12's `Entities::Environment`: the basic shape and its project (`Entities::Project`). */
export const Environment = Type.Object({ ...EnvironmentBasic.properties, project: Project });

export function presentEnvironmentBasic(environment: EnvironmentRow): Static<typeof EnvironmentBasic> {
  return { id: environment.id, name: environment.name, external_url: environment.external_url };
}

export function presentEnvironment(environment: EnvironmentRow, project: ProjectShape): Static<typeof Environment> {
  return Object.assign(presentEnvironmentBasic(environment), { project });
}
