import { Type, type Static, type TBoolean } from '@sinclair/typebox';
import type { ProjectHook as ProjectHookRow } from '../../../services/hooks/project-hooks';
import { HOOK_FLAGS, type HookFlag } from '../../../services/hooks/flags';
import { Timestamp } from '../../shared/schemas';

/** v4's name of each hook flag: the build events became job events; the rest kept their names. */
const v4Name = (flag: HookFlag) => (flag === 'build_events' ? 'job_events' : flag);
export type V4HookFlag = Exclude<HookFlag, 'build_events'> | 'job_events';
export const V4_HOOK_FLAGS = HOOK_FLAGS.map(v4Name) as V4HookFlag[];

const flagSchemas = <T>(schema: () => T) => Object.fromEntries(V4_HOOK_FLAGS.map((flag) => [flag, schema()])) as Record<V4HookFlag, T>;

/** GitLab v4's `ProjectHook`: never the token. */
export const ProjectHook = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  created_at: Timestamp,
  project_id: Type.Integer(),
  ...(flagSchemas(() => Type.Boolean()) as Record<V4HookFlag, TBoolean>),
});

/** The flags a create or update may give, each optional, in v4's names. */
export const optionalHookFlags = () => flagSchemas(() => Type.Optional(Type.Boolean()));

/** The flags given in v4's names, in the service's. */
export function serviceFlags(given: Partial<Record<V4HookFlag, boolean>>): Partial<Record<HookFlag, boolean>> {
  const flags: Partial<Record<HookFlag, boolean>> = {};
  for (const flag of HOOK_FLAGS) {
    const value = given[v4Name(flag) as V4HookFlag];
    if (value !== undefined) flags[flag] = value;
  }
  return flags;
}

export function presentProjectHook(hook: ProjectHookRow): Static<typeof ProjectHook> {
  const flags = Object.fromEntries(HOOK_FLAGS.map((flag) => [v4Name(flag), hook[flag] === 1])) as Record<V4HookFlag, boolean>;
  return { id: hook.id, url: hook.url, created_at: hook.created_at, project_id: hook.project_id, ...flags };
}
