import type { TestApp } from './app';
import type { ApiClient } from './client';
import { seedCommits, type SeedCommit } from './repo';
import { grantProjectRole } from './roles';

/** A user of the test server and a client acting as them. */
export interface Person {
  user: any;
  client: ApiClient;
  token: string;
}

/** The people a project world can hold besides its owner: a member of each role, and a signed-in stranger. */
export type Role = 'master' | 'developer' | 'reporter' | 'guest' | 'stranger';
export const ROLES: readonly Role[] = ['master', 'developer', 'reporter', 'guest', 'stranger'];
export const ACCESS_LEVELS = { guest: 10, reporter: 20, developer: 30, master: 40 } as const;

export type People<R extends Role> = { owner: Person } & Record<R, Person>;

/** Every kind of caller a permission rule tells apart, from the least to the most powerful. */
export type Caller = 'anonymous' | 'non-member' | 'guest' | 'reporter' | 'developer' | 'master' | 'owner' | 'admin';
export const CALLERS: readonly Caller[] = ['anonymous', 'non-member', 'guest', 'reporter', 'developer', 'master', 'owner', 'admin'];

export interface ProjectWorldOptions<R extends Role> {
  /** Whom to make besides the owner (default: everyone in ROLES), in this order. */
  roles?: readonly R[];
  /** People made before (`createPeople`), to give them roles on one more project instead of making new users. */
  people?: People<R>;
  /** Default `project<n>`. */
  name?: string;
  /** `visibility_level` of the new project; left out of the request when not given (GitLab's default, private). */
  visibility?: number;
  /** Commits written straight into the repository, in order (`seedCommit`). */
  commits?: SeedCommit[];
}

export type ProjectWorld<R extends Role> = People<R> & {
  id: number;
  /** `namespace/path` */
  path: string;
  /** The project as POST /projects answered. */
  project: any;
  /** The shas of `commits`, in the same order. */
  shas: string[];
  /** A client for each kind of caller the world holds, for `assertAccess`. */
  clients: Partial<Record<Caller, ApiClient>>;
};

let projects = 0;

/**
 * The owner and then one user per role, made one after another (so their usernames follow that order).
 * `details` are attributes of some of them (`username`, `name` …) for tests whose answers show them.
 */
export async function createPeople<R extends Role = Role>(
  app: TestApp,
  roles: readonly R[] = ROLES as readonly R[],
  details: Partial<Record<'owner' | R, Record<string, unknown>>> = {},
): Promise<People<R>> {
  const people: Record<string, Person> = { owner: await app.createUser(details.owner) };
  for (const role of roles) people[role] = await app.createUser(details[role]);
  return people as People<R>;
}

/**
 * A project owned by a fresh user, with a member of each role (granted in the database: the members
 * API is tested on its own) and optionally commits on its branches: the set-up of most project tests.
 */
export async function createProjectWorld<R extends Role = Role>(app: TestApp, options: ProjectWorldOptions<R> = {}): Promise<ProjectWorld<R>> {
  const roles = options.roles ?? (ROLES as readonly R[]);
  const people = options.people ?? (await createPeople(app, roles));
  const body: Record<string, unknown> = { name: options.name ?? `project${++projects}` };
  if (options.visibility !== undefined) body.visibility_level = options.visibility;
  const created = await people.owner.client.post('/projects', body);
  if (created.status !== 201) throw new Error(`project creation failed: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.id as number;
  const clients: Partial<Record<Caller, ApiClient>> = { anonymous: app.anonymous, admin: app.root, owner: people.owner.client };
  for (const role of roles) {
    const person = (people as Record<R, Person>)[role];
    if (role === 'stranger') clients['non-member'] = person.client;
    else {
      await grantProjectRole(app, id, person.user.id, ACCESS_LEVELS[role as Exclude<Role, 'stranger'>]);
      clients[role as Exclude<Role, 'stranger'>] = person.client;
    }
  }
  const shas = options.commits ? await seedCommits(app, id, options.commits) : [];
  return { ...people, id, path: created.body.path_with_namespace, project: created.body, shas, clients };
}
