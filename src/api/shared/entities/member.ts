import { Type, type Static } from '@sinclair/typebox';
import type { MemberWithUser } from '../../../services/members/types';
import { UserBasic, presentUserBasic } from './user';
import { Nullable, Timestamp } from '../schemas';
import type { Presenter } from '../types';

/**
 * GitLab 8.12's `Member` (UserBasic + `access_level`, `expires_at`) and `AccessRequester`
 * (UserBasic + `requested_at`). Both also carry `created_at`, the membership's (or the
 * request's) creation time, which the spec lists for access requests and approvals.
 */
export const Member = Type.Object({
  ...UserBasic.properties,
  created_at: Timestamp,
  access_level: Type.Integer(),
  /** `YYYY-MM-DD` */
  expires_at: Nullable(Type.String()),
});

export const AccessRequester = Type.Object({
  ...UserBasic.properties,
  created_at: Timestamp,
  requested_at: Timestamp,
});

/** A project's answer to removing a user who is not a member. */
export const AccessRevoked = Type.Object({ message: Type.Literal('Access revoked'), id: Type.Integer() });

export function presentMember({ member, user }: MemberWithUser, presenter: Presenter): Static<typeof Member> {
  return Object.assign(presentUserBasic(user, presenter), {
    created_at: member.created_at,
    access_level: member.access_level,
    expires_at: member.expires_at,
  });
}

export function presentAccessRequester({ member, user }: MemberWithUser, presenter: Presenter): Static<typeof AccessRequester> {
  return Object.assign(presentUserBasic(user, presenter), {
    created_at: member.created_at,
    requested_at: member.requested_at!,
  });
}
