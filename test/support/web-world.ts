import assert from 'node:assert/strict';
import type { TestApp } from './app';
import { createProjectWorld, ROLES, type People, type ProjectWorld, type ProjectWorldOptions, type Role } from './project-world';
import { WebClient } from './web';

/**
 * The set-up of most page tests: a project world (`createProjectWorld`: an owner and a member of
 * each role) and a page client for each of its people, signed in through the form, beside an
 * anonymous one.
 */
export type WebWorld<R extends Role> = ProjectWorld<R> & {
  /** The project's pages: `/namespace/project`. */
  base: string;
  web: Record<'anonymous' | 'owner' | R, WebClient>;
};

/** The path of a `web_url`. */
export const pathOf = (webUrl: string) => new URL(webUrl).pathname;

/** A page client signed in through the form as `account`. */
export async function signedIn(app: TestApp, account: { user: { username: string }; password: string }): Promise<WebClient> {
  const client = new WebClient(app.url);
  assert.equal((await client.signIn(account.user.username, account.password)).status, 303);
  return client;
}

/** Page clients for the anonymous visitor and each of `people`, signed in. */
export async function webClients<K extends string>(
  app: TestApp,
  people: Record<K, { user: { username: string }; password: string }>,
): Promise<Record<'anonymous' | K, WebClient>> {
  const clients = { anonymous: new WebClient(app.url) } as Record<'anonymous' | K, WebClient>;
  for (const [name, person] of Object.entries(people) as [K, (typeof people)[K]][]) clients[name] = await signedIn(app, person);
  return clients;
}

/** A project world (as `createProjectWorld` makes it) with a page client for each of its people: those of `options.people` when given, else the owner and `roles`. */
export async function createWebWorld<R extends Role = Role>(app: TestApp, options: ProjectWorldOptions<R> = {}): Promise<WebWorld<R>> {
  const world = await createProjectWorld(app, options);
  const roles = options.roles ?? (ROLES as readonly R[]);
  const people = options.people ?? { owner: world.owner, ...Object.fromEntries(roles.map((role) => [role, world[role]])) };
  return { ...world, base: pathOf(world.project.web_url), web: await webClients(app, people as People<R>) };
}

/** Opens the form's page for its CSRF token, then posts the fields to `action`. */
export async function submit(client: WebClient, formPage: string, action: string, fields: Record<string, string>) {
  const form = await client.get(formPage);
  assert.equal(form.status, 200, `${formPage}: ${form.status}`);
  return client.post(action, { ...fields, authenticity_token: WebClient.csrfToken(form.text) });
}
