import { Type, type Static } from '@sinclair/typebox';
import type { RunnerRow } from '../../../services/ci/types';
import { Nullable } from '../schemas';

/** GitLab's `Entities::Runner` as 8.12 had it: in runner lists, and as a build shows the runner that ran it. v4 adds to it. */
export const Runner = Type.Object({
  id: Type.Integer(),
  description: Nullable(Type.String()),
  active: Type.Boolean(),
  is_shared: Type.Boolean(),
  name: Nullable(Type.String()),
});

export function presentRunner(runner: RunnerRow): Static<typeof Runner> {
  return {
    id: runner.id,
    description: runner.description,
    active: runner.active === 1,
    is_shared: runner.is_shared === 1,
    name: runner.name,
  };
}
