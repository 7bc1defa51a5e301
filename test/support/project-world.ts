import type { TestApp } from './app';
import type { ApiClient } from './client';
import { seedCommit, seedCommits, type SeedCommit } from './repo';
import { grantProjectRole } from './roles';

/** A user of the test server and a client acting as them. */
export interface Person {
  user: any;
  client: ApiClient;
  token: string;
  /** For signing in through the web form. */
  password: string;
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
  /** A group of the owner's to make the project in (default: the owner's own namespace). */
  namespaceId?: number;
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
export async function createProjectWorld<R extends Role = Role>(
  app: TestApp,
  options: ProjectWorldOptions<R> = {},
): Promise<ProjectWorld<R>> {
  const roles = options.roles ?? (ROLES as readonly R[]);
  const people = options.people ?? (await createPeople(app, roles));
  const body: Record<string, unknown> = { name: options.name ?? `project${++projects}` };
  if (options.visibility !== undefined) body.visibility_level = options.visibility;
  if (options.namespaceId !== undefined) body.namespace_id = options.namespaceId;
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

/** What a secret shows and so who may read it (see `SecretWorld`). */
export type SecretKind = 'confidential' | 'snippet' | 'merge_request';

/** One distinctive string, where it lives and who may read it. */
export interface Secret {
  text: string;
  kind: SecretKind;
  projectId: number;
}

/** The objects `seedSecrets` made in one project. */
export interface SecretSeeds {
  issueId: number;
  issueIid: number;
  issueNoteId: number;
  snippetId: number;
  snippetNoteId: number;
  mergeRequestId: number;
  mergeRequestIid: number;
  mergeRequestNoteId: number;
  milestoneId: number;
  /** The merge request's source branch and its head, whose commit and file hold a merge request secret. */
  branch: string;
  sha: string;
  secrets: Secret[];
}

/**
 * Seeds a project with what only some of its readers may see, each holding distinctive strings:
 * a confidential issue written by `author` and assigned to `assignee` (in a milestone, with a label,
 * a note of a reporter's), a private snippet of the owner's with a note, and a merge request whose
 * branch's commit, file, title, description (closing the confidential issue) and note hold more.
 * Every person of `todoFor` gets a pending todo on the issue and on the merge request, as if left
 * from before the issue became confidential or their role was lowered.
 */
export async function seedSecrets(
  app: TestApp,
  world: ProjectWorld<Role>,
  tag: string,
  { author, assignee, todoFor }: { author: Person; assignee: Person; todoFor: Person[] },
): Promise<SecretSeeds> {
  const ok = async (what: string, request: Promise<{ status: number; body: any }>) => {
    const response = await request;
    if (response.status >= 300) throw new Error(`seeding ${what}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const s = (what: string) => `SECRET-${tag}-${what}`;
  const id = world.id;
  const owner = world.owner.client;
  const milestone = await ok('a milestone', owner.post(`/projects/${id}/milestones`, { title: `milestone ${tag}` }));
  const issue = await ok(
    'a confidential issue',
    author.client.post(`/projects/${id}/issues`, { title: s('issue-title'), description: s('issue-description'), confidential: true }),
  );
  // A guest's labels would be dropped: the owner sets them.
  await ok(
    'its assignee, milestone and label',
    owner.put(`/projects/${id}/issues/${issue.id}`, { assignee_id: assignee.user.id, milestone_id: milestone.id, labels: `label-${tag}` }),
  );
  const issueNote = await ok(
    'a note on it',
    world.reporter.client.post(`/projects/${id}/issues/${issue.id}/notes`, { body: s('issue-note') }),
  );
  const snippet = await ok(
    'a private snippet',
    owner.post(`/projects/${id}/snippets`, {
      title: s('snippet-title'),
      file_name: 'secret.txt',
      code: s('snippet-content'),
      visibility_level: 0,
    }),
  );
  const snippetNote = await ok('a note on it', owner.post(`/projects/${id}/snippets/${snippet.id}/notes`, { body: s('snippet-note') }));
  const branch = `topic-${tag}`;
  await seedCommit(app, id, { files: { 'README.md': 'hello\n' }, message: 'a first commit\n' });
  const sha = await seedCommit(app, id, {
    branch,
    startRef: 'refs/heads/master',
    files: { 'secret.txt': `${s('code')}\n` },
    message: `${s('commit')}\n`,
  });
  const mergeRequest = await ok(
    'a merge request',
    owner.post(`/projects/${id}/merge_requests`, {
      source_branch: branch,
      target_branch: 'master',
      title: s('mr-title'),
      description: `${s('mr-description')}\n\nCloses #${issue.iid}`,
    }),
  );
  const mergeRequestNote = await ok(
    'a note on it',
    owner.post(`/projects/${id}/merge_requests/${mergeRequest.id}/notes`, { body: s('mr-note') }),
  );
  const time = new Date().toISOString();
  const todos = todoFor.flatMap((person) =>
    [
      { target_type: 'Issue', target_id: issue.id },
      { target_type: 'MergeRequest', target_id: mergeRequest.id },
    ].map((target) => ({
      ...target,
      user_id: person.user.id,
      project_id: id,
      author_id: world.owner.user.id,
      note_id: null,
      action: 2,
      created_at: time,
      updated_at: time,
    })),
  );
  await app.ctx.db.insertInto('todos').values(todos).execute();
  const secret = (what: string, kind: SecretKind): Secret => ({ text: s(what), kind, projectId: id });
  return {
    issueId: issue.id,
    issueIid: issue.iid,
    issueNoteId: issueNote.id,
    snippetId: snippet.id,
    snippetNoteId: snippetNote.id,
    mergeRequestId: mergeRequest.id,
    mergeRequestIid: mergeRequest.iid,
    mergeRequestNoteId: mergeRequestNote.id,
    milestoneId: milestone.id,
    branch,
    sha,
    secrets: [
      secret('issue-title', 'confidential'),
      secret('issue-description', 'confidential'),
      secret('issue-note', 'confidential'),
      secret('snippet-title', 'snippet'),
      secret('snippet-content', 'snippet'),
      secret('snippet-note', 'snippet'),
      secret('mr-title', 'merge_request'),
      secret('mr-description', 'merge_request'),
      secret('mr-note', 'merge_request'),
      secret('code', 'merge_request'),
      secret('commit', 'merge_request'),
    ],
  };
}
