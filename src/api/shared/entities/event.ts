import { Type, type Static } from '@sinclair/typebox';
import type { EventRow } from '../../../services/events/events';
import type { User } from '../../../services/users/users';
import { UserBasic, presentUserBasic } from './user';
import { Nullable, Timestamp } from '../schemas';
import type { Presenter } from '../types';

/** An event's fields every API version shows alike; v3 adds the comment's note (its own note entity). */
export const EventBase = Type.Object({
  title: Type.Null(),
  project_id: Nullable(Type.Integer()),
  action_name: Type.String(),
  target_id: Nullable(Type.Integer()),
  target_type: Nullable(Type.String()),
  author_id: Nullable(Type.Integer()),
  data: Nullable(Type.Object({}, { additionalProperties: true })),
  target_title: Nullable(Type.String()),
  created_at: Timestamp,
  author: Type.Optional(UserBasic),
  author_username: Nullable(Type.String()),
});

export function presentEventBase(event: EventRow, authors: Map<number, User>, presenter: Presenter): Static<typeof EventBase> {
  const author = event.author_id !== null ? authors.get(event.author_id) : undefined;
  return {
    title: null,
    project_id: event.project_id,
    action_name: event.action,
    target_id: event.target_id,
    target_type: event.target_type,
    author_id: event.author_id,
    data: event.data === null ? null : JSON.parse(event.data),
    target_title: event.target_title,
    created_at: event.created_at,
    author: author ? presentUserBasic(author, presenter) : undefined,
    author_username: author?.username ?? null,
  };
}
