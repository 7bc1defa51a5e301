import type { Db } from '../../db/index';
import type { Project } from '../projects/types';
import type { IssueRow } from '../issues/types';
import { loadStandings } from '../projects/queries';
import { can, readsGroupItself, type Caller } from '../policy';
import { mayReadIssue } from '../policy-reads';
import { mentionedNames } from './mentions';

/**
 * The users a text mentions, as GitLab 8.12's reference extractor found them for the author:
 * `@username` (any case); `@group`, the group's members, when the author may read the group;
 * `@all`, every member of the project, when the author is one (8.12 made `@all` a reference only
 * for members, and its todos went to everyone it reached). Unknown names are ignored.
 */
export async function mentionedUserIds(trx: Db, text: string, project: Project, author: Caller): Promise<number[]> {
  const names = mentionedNames(text);
  if (names.length === 0) return [];
  const named = names.filter((name) => name !== 'all');
  const [users, groups] = named.length
    ? await Promise.all([
        trx
          .selectFrom('users')
          .select(['id', 'username'])
          .where((eb) => eb.fn('lower', ['username']), 'in', named)
          .execute(),
        trx
          .selectFrom('namespaces')
          .select(['id', 'visibility_level'])
          .where('kind', '=', 'group')
          .where((eb) => eb.fn('lower', ['path']), 'in', named)
          .execute(),
      ])
    : [[], []];
  const ids = users.map((user) => user.id);
  for (const group of groups) {
    const members = await groupMemberIds(trx, group.id);
    const readable = readsGroupItself(author, group.visibility_level, members.includes(author.id));
    if (readable) ids.push(...members);
  }
  if (names.includes('all')) {
    const members = await projectMemberIds(trx, project);
    if (members.includes(author.id)) ids.push(...members);
  }
  return [...new Set(ids)];
}

/** Those of the users who may read the issue (active, the project's issues readable, confidential issues as 8.12 showed them). */
export async function issueReaders(trx: Db, project: Project, issue: IssueRow, userIds: number[]): Promise<number[]> {
  if (userIds.length === 0) return [];
  const users = await trx
    .selectFrom('users')
    .select(['id', 'admin', 'external'])
    .where('id', 'in', [...new Set(userIds)])
    .where('state', '=', 'active')
    .execute();
  const standings = await loadStandings(trx, project, users);
  return users.filter((user) => mayReadIssue(standings.get(user.id)!, issue)).map((user) => user.id);
}

async function groupMemberIds(trx: Db, groupId: number): Promise<number[]> {
  const rows = await trx
    .selectFrom('members')
    .select('user_id')
    .where('source_type', '=', 'Namespace')
    .where('source_id', '=', groupId)
    .where('requested_at', 'is', null)
    .execute();
  return rows.map((row) => row.user_id);
}

/** The project's team as 8.12's `project.team.members`: its own members, its group's, the groups it is shared with, and the owner of a personal project. */
async function projectMemberIds(trx: Db, project: Project): Promise<number[]> {
  const sharedGroups = trx.selectFrom('project_group_links').select('group_id').where('project_id', '=', project.id);
  const rows = await trx
    .selectFrom('members')
    .select('user_id')
    .where('requested_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb.and([eb('source_type', '=', 'Project'), eb('source_id', '=', project.id)]),
        eb.and([eb('source_type', '=', 'Namespace'), eb('source_id', '=', project.namespace_id)]),
        eb.and([eb('source_type', '=', 'Namespace'), eb('source_id', 'in', sharedGroups)]),
      ]),
    )
    .execute();
  const ids = rows.map((row) => row.user_id);
  if (project.namespace.kind === 'user' && project.namespace.owner_id !== null) ids.push(project.namespace.owner_id);
  return [...new Set(ids)];
}

/** Those of the users who may read the project's merge requests (active, `read_merge_request`). */
export async function mergeRequestReaders(trx: Db, project: Project, userIds: number[]): Promise<number[]> {
  if (userIds.length === 0) return [];
  const users = await trx
    .selectFrom('users')
    .select(['id', 'admin', 'external'])
    .where('id', 'in', [...new Set(userIds)])
    .where('state', '=', 'active')
    .execute();
  const standings = await loadStandings(trx, project, users);
  return users.filter((user) => can(standings.get(user.id)!, 'read_merge_request')).map((user) => user.id);
}
