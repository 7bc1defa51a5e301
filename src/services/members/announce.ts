import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import type { EventsService } from '../events/events';
import { emitSystemEvent, eventProject, groupMemberEventData, projectMemberEventData } from '../hooks/system-events';
import { personalOwnerId } from './sources';
import type { MemberSource, MemberWithUser } from './types';

function systemData(source: MemberSource, { member, user }: MemberWithUser) {
  return source.type === 'Project'
    ? projectMemberEventData(member, eventProject(source.project), user)
    : groupMemberEventData(member, source.group, user);
}

/**
 * What GitLab 8.12 does after a membership is created (or an access request approved):
 * a project `joined` event authored by the new member (not for the personal project's
 * owner), and `user_add_to_team` / `user_add_to_group` to the system hooks.
 */
export async function announceJoin(
  ctx: ServiceContext,
  events: EventsService,
  trx: Db,
  source: MemberSource,
  joined: MemberWithUser,
): Promise<void> {
  if (source.type === 'Project' && joined.user.id !== personalOwnerId(source)) {
    await events.record(trx, { projectId: source.id, authorId: joined.user.id, action: 'joined' });
  }
  await emitSystemEvent(ctx, trx, source.type === 'Project' ? 'user_add_to_team' : 'user_add_to_group', systemData(source, joined));
}

/** After a membership is removed: a project `left` event and `user_remove_from_team` / `user_remove_from_group`. */
export async function announceLeave(
  ctx: ServiceContext,
  events: EventsService,
  trx: Db,
  source: MemberSource,
  left: MemberWithUser,
): Promise<void> {
  if (source.type === 'Project') await events.record(trx, { projectId: source.id, authorId: left.user.id, action: 'left' });
  await emitSystemEvent(ctx, trx, source.type === 'Project' ? 'user_remove_from_team' : 'user_remove_from_group', systemData(source, left));
}
