import type { Services } from '../services/index';
import type { Caller } from '../services/policy';
import type { MemberSource } from '../services/members/types';
import { ApiError } from '../errors';
import { fieldErrors, type FieldErrors } from './form-errors';
import { isDelete, settingsErrors } from './settings-scope';
import { WebError } from './request';

/**
 * What a group's and a project's members pages do, through the calls of the API's members and
 * access-request routes (their events and system hooks): one place, so both pages answer alike.
 * Each action answers nothing when done, or what the page shows beside the form or the row.
 */

/** The add form as typed, to show again with its errors. */
export interface AddAttempt {
  user: string;
  accessLevel?: string;
  expiresAt?: string;
  errors: FieldErrors;
}

/** A refusal said beside one member's row. */
export interface RowRefusal {
  userId: number;
  messages: string[];
}

/** Adds the user the form names (by username, `@username` or id); a member already there is said so. */
export async function addMember(
  services: Services,
  source: MemberSource,
  caller: Caller,
  form: { user?: string; access_level?: string; expires_at?: string },
): Promise<AddAttempt | undefined> {
  const { user: username = '', access_level, expires_at } = form;
  const typed = { user: username, accessLevel: access_level, expiresAt: expires_at };
  const member = username.trim() === '' ? undefined : await services.users.findByIdOrUsername(username.trim().replace(/^@/, ''));
  if (!member) return { ...typed, errors: { user: ['is not a known user'] } };
  try {
    await services.members.add(source, caller, { user_id: member.id, access_level, expires_at }, { existingIsConflict: true });
    return undefined;
  } catch (error) {
    const errors = settingsErrors(error);
    if (!errors) throw error;
    return { ...typed, errors: errors.base?.[0] === 'Member already exists' ? { user: ['is already a member'] } : errors };
  }
}

/**
 * Changes one member's role and expiry, or (`_method=delete`) removes the member or denies their
 * request. `forbidden` is what the API's 403 means on this page (the last owner, a personal project's owner).
 */
export async function changeMember(
  services: Services,
  source: MemberSource,
  caller: Caller,
  userId: number,
  form: { _method?: string; access_level?: string; expires_at?: string },
  forbidden: string,
): Promise<RowRefusal | undefined> {
  return refusedRow(userId, forbidden, () =>
    isDelete(form)
      ? removeMemberOrRequest(services, source, caller, userId)
      : services.members.update(source, userId, { access_level: form.access_level, expires_at: form.expires_at }),
  );
}

/** Grants a pending request at the chosen role. */
export async function approveRequest(
  services: Services,
  source: MemberSource,
  userId: number,
  accessLevel: string | undefined,
  forbidden: string,
): Promise<RowRefusal | undefined> {
  return refusedRow(userId, forbidden, () => services.accessRequests.approve(source, userId, accessLevel));
}

/** An unknown member is the page's 404; a refusal the page can word is said beside the row; anything else is thrown. */
async function refusedRow(userId: number, forbidden: string, change: () => Promise<unknown>): Promise<RowRefusal | undefined> {
  try {
    await change();
    return undefined;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw new WebError(404);
    const messages = error instanceof ApiError && error.status === 403 ? [forbidden] : fieldErrors(error)?.base;
    if (!messages) throw error;
    return { userId, messages };
  }
}

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
async function removeMemberOrRequest(services: Services, source: MemberSource, caller: Caller, userId: number): Promise<void> {
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
