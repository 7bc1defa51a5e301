import { sql, type Insertable } from 'kysely';
import type { DbHandle } from '../../src/db/index';
import { chunksOf } from '../../src/db/chunks';
import type { Database, Flag, UsersTable } from '../../src/db/schema';
import type { SecretBox } from '../../src/lib/secrets';
import { digestToken } from '../../src/lib/secrets';
import { TODO_ACTIONS } from '../../src/services/todos/queries';
import { seedProjects } from './seed-projects';

export interface CollaborationShape {
  issues: number;
  notes: number;
}

export interface CollaborationWorld {
  /** The measured caller: a developer of 44 of the 100 projects, not an administrator. */
  benchToken: string;
  /** One of the caller's projects (personal, private) and one of their groups. */
  projectId: number;
  groupId: number;
  /** A label of that project carried by about a tenth of its issues. */
  labelTitle: string;
  /** The project's issue with many notes (a global id, as v3 names issues in paths). */
  busyIssueId: number;
  /** The same issue's iid, as v4 names issues in paths. */
  busyIssueIid: number;
  busyIssueNotes: number;
  /** What the measured lists should total, checked through `X-Total`. */
  authoredVisible: number;
  pendingTodos: number;
  rows: Record<string, number>;
}

const PROJECTS = 100;
/** Authors and assignees: the 51 users `seedProjects` makes and this many more. */
const EXTRA_USERS = 250;
const LABELS_PER_PROJECT = 10;
const MILESTONES_PER_PROJECT = 5;
const LABEL_TITLES = [
  'bug',
  'feature',
  'regression',
  'security',
  'performance',
  'documentation',
  'ux',
  'backend',
  'frontend',
  'discussion',
];
const EMOJI = ['thumbsup', 'thumbsdown', 'smile', 'tada'];
const BASE_TIME = Date.UTC(2016, 2, 1);
const minutes = (n: number) => new Date(BASE_TIME + n * 60_000).toISOString();
const flag = (value: boolean): Flag => (value ? 1 : 0);

/**
 * 100 projects (`seedProjects`), then issues with labels, milestones, authors and assignees spread
 * over about 300 users (one in twenty confidential, a third closed), notes (one in ten a system note;
 * one issue of the caller's project holds a fiftieth of them), award emoji on issues and notes,
 * subscriptions, todos (a fifth of them the caller's) and `internal_ids` to match, in bulk and in one
 * transaction, as the issues, notes and todos services would have left them. Deterministic: issue k
 * is in project k mod 100 and everything else about it follows from k.
 */
export async function seedCollaboration(handle: DbHandle, secrets: SecretBox, shape: CollaborationShape): Promise<CollaborationWorld> {
  const projectWorld = await seedProjects(handle, secrets, { projects: PROJECTS, users: 50, groups: 25 });
  const { db, dialect } = handle;
  const world = await db.transaction().execute(async (trx) => {
    const rows: Record<string, number> = {};
    const insert = async <T extends keyof Database>(table: T, values: Insertable<Database[T]>[]) => {
      rows[table] = (rows[table] ?? 0) + values.length;
      for (const chunk of chunksOf(values))
        await trx
          .insertInto(table)
          .values(chunk as never)
          .execute();
    };

    const template = await trx.selectFrom('users').selectAll().where('username', '=', 'user00000').executeTakeFirstOrThrow();
    const extraUsers: Insertable<UsersTable>[] = [];
    for (let u = 0; u < EXTRA_USERS; u++) {
      const username = `contributor${String(u).padStart(4, '0')}`;
      const { id: _id, ...rest } = template;
      extraUsers.push({
        ...rest,
        username,
        email: `${username}@example.com`,
        name: `Contributor ${u}`,
        token_digest: digestToken(`seed-${username}`),
        token_sealed: secrets.seal(`seed-${username}`),
      });
    }
    await insert('users', extraUsers);
    const bench = await trx.selectFrom('users').select('id').where('username', '=', 'bench').executeTakeFirstOrThrow();
    const people = (
      await trx.selectFrom('users').select('id').where('username', '<>', 'root').where('username', '<>', 'bench').orderBy('id').execute()
    ).map((row) => row.id);
    const person = (n: number) => people[n % people.length];

    const projectRows = await trx.selectFrom('projects').select(['id', 'path', 'visibility_level']).execute();
    const projectIds: number[] = [];
    for (const row of projectRows) projectIds[Number(row.path.replace('project-', ''))] = row.id;
    const memberOf = new Set(
      (
        await trx.selectFrom('members').select('source_id').where('user_id', '=', bench.id).where('source_type', '=', 'Project').execute()
      ).map((row) => row.source_id),
    );
    const benchGroups = (
      await trx
        .selectFrom('members')
        .select('source_id')
        .where('user_id', '=', bench.id)
        .where('source_type', '=', 'Namespace')
        .orderBy('source_id')
        .execute()
    ).map((row) => row.source_id);
    for (const row of await trx.selectFrom('projects').select('id').where('namespace_id', 'in', benchGroups).execute())
      memberOf.add(row.id);

    const labelRows = [];
    const milestoneRows = [];
    for (let p = 0; p < PROJECTS; p++) {
      for (let l = 0; l < LABELS_PER_PROJECT; l++) {
        labelRows.push({
          project_id: projectIds[p],
          title: LABEL_TITLES[l],
          color: '#428BCA',
          description: null,
          created_at: minutes(l),
          updated_at: minutes(l),
        });
      }
      for (let m = 1; m <= MILESTONES_PER_PROJECT; m++) {
        milestoneRows.push({
          iid: m,
          project_id: projectIds[p],
          title: `v${m}.0`,
          description: null,
          due_date: null,
          state: m <= 2 ? 'closed' : 'active',
          created_at: minutes(m),
          updated_at: minutes(m),
        });
      }
    }
    await insert('labels', labelRows);
    await insert('milestones', milestoneRows);
    const labelId = new Map(
      (await trx.selectFrom('labels').select(['id', 'project_id', 'title']).execute()).map((row) => [
        `${row.project_id}/${row.title}`,
        row.id,
      ]),
    );
    const milestoneId = new Map(
      (await trx.selectFrom('milestones').select(['id', 'project_id', 'iid']).execute()).map((row) => [
        `${row.project_id}/${row.iid}`,
        row.id,
      ]),
    );

    // Issue k: project k mod 100, iid k div 100 + 1; the caller writes one in 50, is assigned one in 40.
    const issueRows = [];
    for (let k = 0; k < shape.issues; k++) {
      const p = k % PROJECTS;
      const time = minutes(1_000 + k);
      issueRows.push({
        iid: Math.floor(k / PROJECTS) + 1,
        project_id: projectIds[p],
        author_id: k % 50 === 7 ? bench.id : person(k * 31),
        assignee_id: k % 40 === 3 ? bench.id : k % 4 === 0 ? null : person(k * 17),
        milestone_id: k % 3 === 0 ? null : milestoneId.get(`${projectIds[p]}/${(k % MILESTONES_PER_PROJECT) + 1}`)!,
        title: `Issue ${k}: ${LABEL_TITLES[k % LABEL_TITLES.length]} in the ${LABEL_TITLES[(k * 7) % LABEL_TITLES.length]} area`,
        description: `Seeded issue ${k}. Steps to reproduce, what happens, what should happen.`,
        state: k % 3 === 1 ? 'closed' : k % 11 === 5 ? 'reopened' : 'opened',
        confidential: flag(k % 20 === 9),
        due_date: null,
        moved_to_id: null,
        created_at: time,
        updated_at: time,
      });
    }
    await insert('issues', issueRows);
    const issues = await trx.selectFrom('issues').select(['id', 'project_id', 'iid']).execute();
    const issueId = new Map(issues.map((row) => [`${row.project_id}/${row.iid}`, row.id]));
    const idOf = (k: number) => issueId.get(`${projectIds[k % PROJECTS]}/${Math.floor(k / PROJECTS) + 1}`)!;

    // Zero to three labels an issue, by its iid, so that every project has issues with each title.
    const linkRows = [];
    for (let k = 0; k < shape.issues; k++) {
      const q = Math.floor(k / PROJECTS);
      for (let j = 0; j < q % 4; j++) {
        linkRows.push({
          label_id: labelId.get(`${projectIds[k % PROJECTS]}/${LABEL_TITLES[(k + q + 3 * j) % LABELS_PER_PROJECT]}`)!,
          target_type: 'Issue',
          target_id: idOf(k),
          created_at: minutes(1_000 + k),
          updated_at: minutes(1_000 + k),
        });
      }
    }
    await insert('label_links', linkRows);
    await insert('internal_ids', [
      ...projectIds.map((id, p) => ({ project_id: id, usage: 'issues', last_value: Math.floor((shape.issues - 1 - p) / PROJECTS) + 1 })),
      ...projectIds.map((id) => ({ project_id: id, usage: 'milestones', last_value: MILESTONES_PER_PROJECT })),
    ]);

    // Notes: a fiftieth on issue 0 (the caller's project 0), the rest round the issues; one in ten a system note.
    const busyIssueNotes = Math.floor(shape.notes / 50);
    const noteRows = [];
    for (let n = 0; n < shape.notes; n++) {
      const k = n < busyIssueNotes ? 0 : n % shape.issues;
      const system = n % 10 === 4;
      noteRows.push({
        project_id: projectIds[k % PROJECTS],
        noteable_type: 'Issue',
        noteable_id: idOf(k),
        commit_id: null,
        author_id: n % 25 === 3 ? bench.id : person(n * 13),
        note: system
          ? 'Added ~1 label'
          : `Note ${n}: I can reproduce this on ${LABEL_TITLES[n % LABEL_TITLES.length]}; see the logs attached.`,
        path: null,
        line: null,
        line_type: null,
        system: flag(system),
        attachment: null,
        created_at: minutes(1_000 + shape.issues + n),
        updated_at: minutes(1_000 + shape.issues + n),
      });
    }
    await insert('notes', noteRows);
    const firstNote = Number(
      (
        await trx
          .selectFrom('notes')
          .select((eb) => eb.fn.min('id').as('id'))
          .executeTakeFirstOrThrow()
      ).id,
    );

    // Award emoji: one in five issues gets one or two, one in twenty notes one.
    const awardRows = [];
    for (let k = 0; k < shape.issues; k += 5) {
      for (let a = 0; a < 1 + (k % 2); a++)
        awardRows.push({
          name: EMOJI[(k + a) % EMOJI.length],
          user_id: person(k + a * 7),
          awardable_type: 'Issue',
          awardable_id: idOf(k),
          created_at: minutes(k),
          updated_at: minutes(k),
        });
    }
    for (let n = 0; n < shape.notes; n += 20)
      awardRows.push({
        name: EMOJI[n % EMOJI.length],
        user_id: person(n * 3),
        awardable_type: 'Note',
        awardable_id: firstNote + n,
        created_at: minutes(n),
        updated_at: minutes(n),
      });
    await insert('award_emoji', awardRows);

    // Subscriptions: one issue in twenty, a mix of subscribed and unsubscribed.
    const subscriptionRows = [];
    for (let k = 0; k < shape.issues; k += 20) {
      subscriptionRows.push({
        user_id: k % 40 === 0 ? bench.id : person(k * 11),
        subscribable_type: 'Issue',
        subscribable_id: idOf(k),
        subscribed: flag(k % 60 !== 0),
        created_at: minutes(k),
        updated_at: minutes(k),
      });
    }
    await insert('subscriptions', subscriptionRows);

    // Todos: one per ten issues; a fifth of them the caller's, on issues of their projects, a third of those done.
    const todoRows = [];
    let pendingTodos = 0;
    for (let k = 0; k < shape.issues; k += 10) {
      const project = projectIds[k % PROJECTS];
      const mine = (k / 10) % 5 === 0 && memberOf.has(project);
      const done = mine && k % 3 === 0;
      if (mine && !done) pendingTodos++;
      todoRows.push({
        user_id: mine ? bench.id : person(k * 7),
        project_id: project,
        author_id: person(k),
        target_type: 'Issue',
        target_id: idOf(k),
        note_id: k % 4 === 0 ? null : firstNote + ((k * 3) % shape.notes),
        action: k % 4 === 0 ? TODO_ACTIONS.assigned : TODO_ACTIONS.mentioned,
        state: done ? 'done' : 'pending',
        created_at: minutes(1_000 + k),
        updated_at: minutes(1_000 + k),
      });
    }
    await insert('todos', todoRows);

    // The caller's own issues in projects they may read: theirs, or public and internal ones.
    const readable = new Set(projectRows.filter((row) => row.visibility_level > 0 || memberOf.has(row.id)).map((row) => row.id));
    const authoredVisible = issueRows.filter((row) => row.author_id === bench.id && readable.has(row.project_id)).length;
    return {
      benchToken: projectWorld.benchToken,
      projectId: projectIds[0],
      groupId: benchGroups[0],
      labelTitle: LABEL_TITLES[1],
      busyIssueId: idOf(0),
      busyIssueIid: 1,
      busyIssueNotes,
      authoredVisible,
      pendingTodos,
      rows,
    };
  });
  if (dialect === 'postgres') await sql`ANALYZE`.execute(db);
  return world;
}
