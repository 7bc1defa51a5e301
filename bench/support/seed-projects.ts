import { sql, type Insertable } from 'kysely';
import type { Db, DbHandle } from '../../src/db/index';
import type { Database, MembersTable, NamespacesTable, ProjectsTable, UsersTable } from '../../src/db/schema';
import type { SecretBox } from '../../src/lib/secrets';
import { digestToken, hashPassword } from '../../src/lib/secrets';
import { DEVELOPER, INTERNAL, MASTER, OWNER, PRIVATE, PUBLIC } from '../../src/services/policy';

export interface SeedShape {
  projects: number;
  /** Half the projects are personal, spread evenly over the users; the other half over the groups. */
  users: number;
  groups: number;
}

export interface SeededWorld {
  /** The measured caller: a member of exactly `memberProjects` projects. */
  benchToken: string;
  memberProjects: number;
  /** A word found in the names of some of the caller's projects. */
  searchTerm: string;
  rows: { users: number; namespaces: number; projects: number; members: number };
}

const WORDS = [
  'alpha',
  'bravo',
  'charlie',
  'delta',
  'echo',
  'foxtrot',
  'golf',
  'hotel',
  'india',
  'juliet',
  'kilo',
  'lima',
  'mike',
  'november',
  'oscar',
  'papa',
];
const BASE_TIME = Date.UTC(2016, 0, 1);
const minutes = (n: number) => new Date(BASE_TIME + n * 60_000).toISOString();
const BENCH_USER_TOKEN = 'bench-member-token-0001';
/** The caller is a direct member of this many personal projects and a member of two groups. */
const DIRECT_MEMBERSHIPS = 40;
const BENCH_GROUPS = 2;

/**
 * Writes users (with their personal namespaces), groups, projects and memberships in bulk, the rows
 * the users, groups and projects services would have written, in one transaction. Deterministic:
 * the same shape gives the same rows. Even-numbered projects are personal, odd ones belong to groups;
 * creation times interleave them. PostgreSQL is then analyzed, as autovacuum would soon do; SQLite is
 * left without statistics, as Forge never runs ANALYZE on it.
 */
export async function seedProjects({ db, dialect }: DbHandle, secrets: SecretBox, shape: SeedShape): Promise<SeededWorld> {
  const passwordHash = await hashPassword('password123');
  const perGroup = shape.projects / 2 / shape.groups;
  if (!Number.isInteger(shape.projects / 2 / shape.users) || !Number.isInteger(perGroup))
    throw new Error('projects must split evenly between users and groups');

  const world = await db.transaction().execute(async (trx) => {
    const userRows: Insertable<UsersTable>[] = [];
    for (let u = 0; u <= shape.users; u++) {
      // The last one is the measured caller.
      const username = u === shape.users ? 'bench' : `user${String(u).padStart(5, '0')}`;
      const token = u === shape.users ? BENCH_USER_TOKEN : `seed-token-${username}`;
      userRows.push({
        username,
        email: `${username}@example.com`,
        name: `User ${username}`,
        password_hash: passwordHash,
        token_digest: digestToken(token),
        token_sealed: secrets.seal(token),
        state: 'active',
        admin: 0,
        external: 0,
        can_create_group: 1,
        projects_limit: 100,
        bio: null,
        location: null,
        skype: '',
        linkedin: '',
        twitter: '',
        website_url: '',
        theme_id: 2,
        color_scheme_id: 1,
        confirmed_at: minutes(u),
        last_sign_in_at: null,
        current_sign_in_at: null,
        created_at: minutes(u),
        updated_at: minutes(u),
      });
    }
    const users = await insertReturning(trx, 'users', userRows, 'username');
    const userId = (u: number) => users.get(userRows[u].username)!;
    const benchUserId = userId(shape.users);

    const namespaceRows: Insertable<NamespacesTable>[] = [];
    for (let u = 0; u <= shape.users; u++) namespaceRows.push(namespace(userRows[u].username, 'user', userId(u), minutes(u)));
    for (let g = 0; g < shape.groups; g++) namespaceRows.push(namespace(groupPath(g), 'group', null, minutes(g)));
    const namespaces = await insertReturning(trx, 'namespaces', namespaceRows, 'path');
    const personalNamespace = (u: number) => namespaces.get(userRows[u].username)!;
    const groupNamespace = (g: number) => namespaces.get(groupPath(g))!;
    const groupOwner = (g: number) => g % shape.users;

    const projectRows: Insertable<ProjectsTable>[] = [];
    for (let i = 0; i < shape.projects; i++) {
      const slot = Math.floor(i / 2);
      const personal = i % 2 === 0;
      const owner = personal ? slot % shape.users : groupOwner(slot % shape.groups);
      const time = minutes(10_000 + i);
      projectRows.push({
        namespace_id: personal ? personalNamespace(slot % shape.users) : groupNamespace(slot % shape.groups),
        name: `Project ${i} ${WORDS[i % WORDS.length]}`,
        path: `project-${i}`,
        description: `Seeded project ${i}: ${WORDS[(i * 7) % WORDS.length]} ${WORDS[(i * 3) % WORDS.length]}`,
        default_branch: null,
        tag_list: '[]',
        visibility_level: [PRIVATE, INTERNAL, PUBLIC][i % 3],
        archived: 0,
        issues_enabled: 1,
        merge_requests_enabled: 1,
        builds_enabled: 1,
        wiki_enabled: 1,
        snippets_enabled: 1,
        container_registry_enabled: 0,
        shared_runners_enabled: 1,
        public_builds: 1,
        only_allow_merge_if_build_succeeds: 0,
        lfs_enabled: 1,
        request_access_enabled: 0,
        creator_id: userId(owner),
        forked_from_project_id: null,
        star_count: 0,
        import_url: null,
        import_status: 'none',
        runners_token_digest: digestToken(`runners-${i}`),
        runners_token_sealed: secrets.seal(`runners-${i}`),
        pending_delete: 0,
        last_activity_at: time,
        created_at: time,
        updated_at: time,
      });
    }
    const projects = await insertReturning(trx, 'projects', projectRows, 'path', 'namespace_id');
    const projectId = (i: number) => projects.get(`${projectRows[i].namespace_id}/${projectRows[i].path}`)!;

    const memberRows: Insertable<MembersTable>[] = [];
    const seen = new Set<string>();
    const member = (sourceType: 'Project' | 'Namespace', sourceId: number, user: number, level: number, time: string) => {
      const key = `${sourceType}:${sourceId}:${user}`;
      if (seen.has(key)) return false;
      seen.add(key);
      memberRows.push({
        source_type: sourceType,
        source_id: sourceId,
        user_id: user,
        access_level: level,
        notification_level: 3,
        expires_at: null,
        requested_at: null,
        created_by_id: null,
        created_at: time,
        updated_at: time,
      });
      return true;
    };
    // The creator of a personal project is its master; a group's creator is its owner.
    for (let i = 0; i < shape.projects; i += 2)
      member('Project', projectId(i), userId(Math.floor(i / 2) % shape.users), MASTER, minutes(10_000 + i));
    for (let g = 0; g < shape.groups; g++) {
      member('Namespace', groupNamespace(g), userId(groupOwner(g)), OWNER, minutes(g));
      for (let j = 1; j <= 4; j++)
        member('Namespace', groupNamespace(g), userId((g * 7 + j * 131) % shape.users), DEVELOPER, minutes(g + j));
    }
    // Everyone also works on a few projects elsewhere.
    for (let u = 0; u < shape.users; u++) {
      for (let j = 0; j < 5; j++)
        member('Project', projectId((u * 97 + j * 1999 + 1) % shape.projects), userId(u), DEVELOPER, minutes(20_000 + u));
    }
    // The measured caller: direct member of personal projects spread over the whole table, plus two groups.
    let direct = 0;
    for (let j = 0; j < DIRECT_MEMBERSHIPS; j++) {
      const i = 2 * Math.floor((j * shape.projects) / (2 * DIRECT_MEMBERSHIPS));
      if (member('Project', projectId(i), benchUserId, DEVELOPER, minutes(30_000 + j))) direct++;
    }
    for (let g = 0; g < BENCH_GROUPS; g++) member('Namespace', groupNamespace(g), benchUserId, DEVELOPER, minutes(30_000 + g));
    await insertChunks(trx, 'members', memberRows);

    return {
      benchToken: BENCH_USER_TOKEN,
      memberProjects: direct + BENCH_GROUPS * perGroup,
      // Project 0 is one of the caller's: its name ends with the word searched for.
      searchTerm: WORDS[0],
      rows: { users: userRows.length, namespaces: namespaceRows.length, projects: projectRows.length, members: memberRows.length },
    };
  });
  if (dialect === 'postgres') await sql`ANALYZE`.execute(db);
  return world;
}

const groupPath = (g: number) => `group${String(g).padStart(5, '0')}`;

function namespace(path: string, kind: 'user' | 'group', ownerId: number | null, time: string): Insertable<NamespacesTable> {
  return {
    name: path,
    path,
    kind,
    owner_id: ownerId,
    description: '',
    visibility_level: PUBLIC,
    request_access_enabled: 1,
    share_with_group_lock: 0,
    lfs_enabled: 1,
    created_at: time,
    updated_at: time,
  };
}

/** Both databases take tens of thousands of bound values per statement; stay well under either limit. */
function chunksOf<T extends object>(rows: T[]): T[][] {
  const perRow = Object.keys(rows[0] ?? { x: 1 }).length;
  const size = Math.max(1, Math.floor(20_000 / perRow));
  const chunks: T[][] = [];
  for (let at = 0; at < rows.length; at += size) chunks.push(rows.slice(at, at + size));
  return chunks;
}

type Table = 'users' | 'namespaces' | 'projects' | 'members';

async function insertChunks(trx: Db, table: Table, rows: Insertable<Database[Table]>[]): Promise<void> {
  for (const chunk of chunksOf(rows))
    await trx
      .insertInto(table)
      .values(chunk as never)
      .execute();
}

/** Inserts rows and maps a natural key (or `scope/key`) to the new id: multi-row RETURNING order is not promised. */
async function insertReturning(
  trx: Db,
  table: 'users' | 'namespaces' | 'projects',
  rows: object[],
  key: string,
  scope?: string,
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const chunk of chunksOf(rows)) {
    const returned = (await trx
      .insertInto(table)
      .values(chunk as never)
      .returning(['id', key, ...(scope ? [scope] : [])] as never)
      .execute()) as Record<string, string | number>[];
    for (const row of returned) ids.set(scope ? `${row[scope]}/${row[key]}` : String(row[key]), Number(row.id));
  }
  return ids;
}
