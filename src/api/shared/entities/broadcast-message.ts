import { Type, type Static } from '@sinclair/typebox';
import { isActive, type BroadcastMessage as BroadcastMessageRow } from '../../../services/broadcast-messages/broadcast-messages';
import { Timestamp } from '../schemas';

/** GitLab's BroadcastMessage entity: exactly these seven keys. */
export const BroadcastMessage = Type.Object({
  id: Type.Integer(),
  message: Type.String(),
  starts_at: Timestamp,
  ends_at: Timestamp,
  color: Type.String(),
  font: Type.String(),
  active: Type.Boolean(),
});

export function presentBroadcastMessage(message: BroadcastMessageRow): Static<typeof BroadcastMessage> {
  return {
    id: message.id,
    message: message.message,
    starts_at: message.starts_at,
    ends_at: message.ends_at,
    color: message.color,
    font: message.font,
    active: isActive(message),
  };
}
