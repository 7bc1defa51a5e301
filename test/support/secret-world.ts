import type { TestApp } from './app';
import type { ApiClient } from './client';
import { createGroupRow } from './roles';
import { createPeople, createProjectWorld, seedSecrets, type Person, type ProjectWorld, type Role } from './project-world';
import { VISIBILITY_LEVELS, type Reader, type SweptProject, type Visibility } from './access-matrix';

/** The sweep's readers beyond a project world's callers: an access requester, and the confidential issues' author and assignee (guests). */
export type ExtraReader = 'requester' | 'author' | 'assignee';

export interface SecretWorld {
  /** One project of each visibility, with the same cast of callers in the same roles. */
  projects: Record<Visibility, ProjectWorld<Role>>;
  /** The same projects with their seeded secrets, as the sweep takes them. */
  swept: SweptProject[];
  extra: Record<ExtraReader, Person>;
  /** The owner's group that holds the projects. */
  groupId: number;
}

/**
 * The visibility matrix's world, shared by the sweeps of every API version: one cast of callers,
 * with the same role on a project of each visibility in one group of the owner's, each project
 * seeded with secrets (`seedSecrets`) and with three guests more (the confidential issue's author
 * and assignee) and an access requester.
 */
export async function createSecretWorld(app: TestApp): Promise<SecretWorld> {
  const people = await createPeople(app);
  const extra = {} as Record<ExtraReader, Person>;
  for (const name of ['requester', 'author', 'assignee'] as const) extra[name] = await app.createUser();
  const groupId = await createGroupRow(app, 'matrix-group', people.owner.user.id);
  const db = app.ctx.db;
  const projects = {} as Record<Visibility, ProjectWorld<Role>>;
  const swept: SweptProject[] = [];
  for (const visibility of Object.keys(VISIBILITY_LEVELS) as Visibility[]) {
    const world = await createProjectWorld(app, {
      people,
      name: `matrix ${visibility}`,
      visibility: VISIBILITY_LEVELS[visibility],
      namespaceId: groupId,
    });
    projects[visibility] = world;
    const time = new Date().toISOString();
    const member = (person: Person, requested: boolean) => ({
      source_type: 'Project',
      source_id: world.id,
      user_id: person.user.id,
      access_level: 10,
      notification_level: 3,
      requested_at: requested ? time : null,
      created_at: time,
      updated_at: time,
    });
    await db
      .insertInto('members')
      .values([member(extra.author, false), member(extra.assignee, false), member(extra.requester, true)])
      .execute();
    const seeds = await seedSecrets(app, world, visibility, {
      author: extra.author,
      assignee: extra.assignee,
      todoFor: [world.guest, world.reporter, world.stranger, extra.requester, extra.author],
    });
    swept.push({ visibility, id: world.id, seeds });
  }
  return { projects, swept, extra, groupId };
}

/** Every reader of the sweep: the private project's callers (the same people in every project) and the extra ones. */
export function secretReaders(world: SecretWorld): Partial<Record<Reader, ApiClient>> {
  return {
    ...world.projects.private.clients,
    requester: world.extra.requester.client,
    author: world.extra.author.client,
    assignee: world.extra.assignee.client,
  };
}

/** The visibility of a swept project, by its id. */
export function visibilityOf(world: SecretWorld): (projectId: number) => Visibility {
  return (projectId) => world.swept.find((project) => project.id === projectId)!.visibility;
}
