import { Type, type Static } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import type { AwardEmojiTable } from '../../../db/schema';
import type { User } from '../../../services/users/users';
import { UserBasic, presentUserBasic } from './user';
import { Nullable, Timestamp, type Presenter } from './common';

/** GitLab 8.12's `Entities::AwardEmoji`. */
export const AwardEmoji = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  user: Nullable(UserBasic),
  created_at: Timestamp,
  updated_at: Timestamp,
  awardable_id: Type.Integer(),
  awardable_type: Type.String(),
});

export function presentAwardEmoji(award: Selectable<AwardEmojiTable>, user: User | undefined, presenter: Presenter): Static<typeof AwardEmoji> {
  return {
    id: award.id,
    name: award.name,
    user: user ? presentUserBasic(user, presenter) : null,
    created_at: award.created_at,
    updated_at: award.updated_at,
    awardable_id: award.awardable_id,
    awardable_type: award.awardable_type,
  };
}
