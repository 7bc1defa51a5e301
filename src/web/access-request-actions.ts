import type { Services } from '../services/index';
import type { Caller } from '../services/policy';
import type { MemberSource } from '../services/members/types';
import { ApiError } from '../errors';

/**
 * What a group's and a project's members pages do with access requests, through the calls of the
 * API's members and access-request routes: one place, so both pages answer alike.
 */

/** The viewer asks to join; already a member or a requester is nothing to ask (a source that takes no requests stays the API's 403). */
export async function askToJoin(services: Services, source: MemberSource, user: Caller): Promise<void> {
  try {
    await services.accessRequests.request(source, user);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 400)) throw error;
  }
}

/**
 * Removes a user's membership, or (a user has a membership or a pending request, never both) their
 * request: a requester withdraws, a master or owner denies. The services' refusals are thrown as they are.
 */
export async function removeMemberOrRequest(services: Services, source: MemberSource, caller: Caller, userId: number): Promise<void> {
  const isMember = await services.members.get(source, userId).then(
    () => true,
    (error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return false;
      throw error;
    },
  );
  if (isMember) await services.members.remove(source, caller, userId);
  else await services.accessRequests.remove(source, caller, userId);
}
