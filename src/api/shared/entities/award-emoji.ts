import { Type, type Static } from '@sinclair/typebox';
import type { AwardRow } from '../../../services/award-emoji/award-emoji';
import type { User } from '../../../services/users/users';
import { Timestamp } from '../schemas';
import type { Presenter } from '../types';
import { UserBasic, presentUserBasic } from './user';

/** GitLab 8.12's `Entities::AwardEmoji`. */
export const AwardEmoji = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  user: UserBasic,
  created_at: Timestamp,
  updated_at: Timestamp,
  awardable_id: Type.Integer(),
  awardable_type: Type.String(),
});

/** `users` holds every award's owner (an award goes with its user). */
export function presentAwardEmoji(award: AwardRow, users: Map<number, User>, presenter: Presenter): Static<typeof AwardEmoji> {
  return {
    id: award.id,
    name: award.name,
    user: presentUserBasic(users.get(award.user_id)!, presenter),
    created_at: award.created_at,
    updated_at: award.updated_at,
    awardable_id: award.awardable_id,
    awardable_type: award.awardable_type,
  };
}
