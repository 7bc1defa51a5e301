import { Type, type Static } from '@sinclair/typebox';
import type { Key as KeyRow } from '../../../services/users/keys';
import { Nullable, Timestamp } from '../schemas';
import { UserFull } from './user';

export const SSHKey = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  key: Type.String(),
  created_at: Timestamp,
});

export const SSHKeyWithUser = Type.Object({
  ...SSHKey.properties,
  // Deploy keys belong to no user.
  user: Nullable(UserFull),
});

/** What GitLab's key deletions answer: the raw deleted record, not an entity. */
export const KeyRecord = Type.Object({
  id: Type.Integer(),
  user_id: Nullable(Type.Integer()),
  created_at: Timestamp,
  updated_at: Timestamp,
  key: Type.String(),
  title: Type.String(),
  fingerprint: Type.String(),
});

export function presentKey(key: KeyRow): Static<typeof SSHKey> {
  return { id: key.id, title: key.title, key: key.key, created_at: key.created_at };
}

export function presentKeyRecord(key: KeyRow): Static<typeof KeyRecord> {
  return {
    id: key.id,
    user_id: key.user_id,
    created_at: key.created_at,
    updated_at: key.updated_at,
    key: key.key,
    title: key.title,
    fingerprint: key.fingerprint,
  };
}
