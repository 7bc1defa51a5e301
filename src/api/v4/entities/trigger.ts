import { Type, type Static } from '@sinclair/typebox';
import type { Trigger as TriggerRecord } from '../../../services/ci/pipelines/triggers';
import type { User } from '../../../services/users/users';
import { UserBasic, presentUserBasic } from '../../shared/entities/user';
import { Nullable, NullableTimestamp, Timestamp } from '../../shared/schemas';
import type { Presenter } from '../../shared/types';

/** GitLab 9–11's `Entities::Trigger`, by id, with its description and owner. */
export const Trigger = Type.Object({
  id: Type.Integer(),
  token: Type.String(),
  description: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
  last_used: NullableTimestamp,
  owner: Nullable(UserBasic),
});

/**
 * GitLab 9's rule for the token: whole to the trigger's owner (and for a trigger without one, made
 * before owners existed), its first four characters to the project's other masters.
 */
export function presentTrigger(
  trigger: TriggerRecord,
  owner: User | undefined,
  caller: User,
  presenter: Presenter,
): Static<typeof Trigger> {
  const mayUse = trigger.owner_id === null || trigger.owner_id === caller.id;
  return {
    id: trigger.id,
    token: mayUse ? trigger.token : trigger.token.slice(0, 4),
    description: trigger.description,
    created_at: trigger.created_at,
    updated_at: trigger.updated_at,
    last_used: trigger.last_used,
    owner: owner ? presentUserBasic(owner, presenter) : null,
  };
}
