import { Type, type Static } from '@sinclair/typebox';
import type { Trigger as TriggerRecord, TriggerRequest as TriggerRequestRecord } from '../../../services/ci/pipelines/triggers';
import { NullableTimestamp, Timestamp } from './common';
import { TriggerVariables } from '../../shared/schemas';

/** GitLab 8.12's `Entities::Trigger`. */
export const Trigger = Type.Object({
  token: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
  deleted_at: NullableTimestamp,
  last_used: NullableTimestamp,
});

/** GitLab 8.12's `Entities::TriggerRequest`. */
export const TriggerRequest = Type.Object({
  id: Type.Integer(),
  variables: TriggerVariables,
});

export function presentTrigger(trigger: TriggerRecord): Static<typeof Trigger> {
  return {
    token: trigger.token,
    created_at: trigger.created_at,
    updated_at: trigger.updated_at,
    deleted_at: trigger.deleted_at,
    last_used: trigger.last_used,
  };
}

export function presentTriggerRequest(request: TriggerRequestRecord): Static<typeof TriggerRequest> {
  return { id: request.id, variables: request.variables };
}
