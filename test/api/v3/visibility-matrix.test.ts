import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { grantProjectRole } from '../../support/roles';
import type { ApiClient } from '../../support/client';

/**
 * The visibility rules as one table: for each visibility level, each kind of caller
 * and a representative read and write endpoint, the status the caller gets.
 */
type Caller = 'anonymous' | 'non-member' | 'guest' | 'reporter' | 'developer' | 'master' | 'owner' | 'administrator';
type Visibility = 'private' | 'internal' | 'public';

const CALLERS: Caller[] = ['anonymous', 'non-member', 'guest', 'reporter', 'developer', 'master', 'owner', 'administrator'];
const LEVELS: Record<Visibility, number> = { private: 0, internal: 10, public: 20 };
const ROLES: Partial<Record<Caller, number>> = { guest: 10, reporter: 20, developer: 30, master: 40 };

/** Whether a signed-in caller sees the project. Anonymous callers see none: every API row needs a signed-in caller. */
function canRead(visibility: Visibility, caller: Caller): boolean {
  if (caller === 'anonymous') return false;
  if (caller === 'non-member') return visibility !== 'private';
  return true;
}

/** Reads need a signed-in caller (401), then visibility (404). */
function readStatus(visibility: Visibility, caller: Caller): number {
  if (caller === 'anonymous') return 401;
  return canRead(visibility, caller) ? 200 : 404;
}

/** Writes need a signed-in caller (401), then visibility (404), then the role (403). */
function writeStatus(visibility: Visibility, caller: Caller, minimum: Caller, success: number): number {
  if (caller === 'anonymous') return 401;
  if (!canRead(visibility, caller)) return 404;
  return CALLERS.indexOf(caller) >= CALLERS.indexOf(minimum) ? success : 403;
}

interface Endpoint {
  name: string;
  call(client: ApiClient, projectId: number): Promise<{ status: number }>;
  expected(visibility: Visibility, caller: Caller): number;
}

const ENDPOINTS: Endpoint[] = [
  { name: 'GET /projects/:id', call: (c, id) => c.get(`/projects/${id}`), expected: readStatus },
  { name: 'GET /projects/:id/events', call: (c, id) => c.get(`/projects/${id}/events`), expected: readStatus },
  {
    name: 'POST /projects/:id/star',
    call: (c, id) => c.post(`/projects/${id}/star`),
    expected: (v, c) => writeStatus(v, c, 'non-member', 201),
  },
  {
    name: 'PUT /projects/:id (master)',
    call: (c, id) => c.put(`/projects/${id}`, { description: 'changed' }),
    expected: (v, c) => writeStatus(v, c, 'master', 200),
  },
  {
    name: 'POST /projects/:id/archive (owner)',
    call: (c, id) => c.post(`/projects/${id}/archive`),
    expected: (v, c) => writeStatus(v, c, 'owner', 201),
  },
  {
    name: 'GET /projects/:id/members (signed-in readers)',
    call: (c, id) => c.get(`/projects/${id}/members`),
    expected: readStatus,
  },
  {
    name: 'GET /projects/:id/variables (master)',
    call: (c, id) => c.get(`/projects/${id}/variables`),
    expected: (v, c) => writeStatus(v, c, 'master', 200),
  },
  {
    name: 'POST /projects/:id/hooks (master)',
    call: (c, id) => c.post(`/projects/${id}/hooks`, { url: 'http://127.0.0.1:9/hook' }),
    expected: (v, c) => writeStatus(v, c, 'master', 201),
  },
  {
    name: 'DELETE /projects/:id/star (after star)',
    call: (c, id) => c.delete(`/projects/${id}/star`),
    // Every reader starred it in the row above, so unstarring succeeds.
    expected: (v, c) => writeStatus(v, c, 'non-member', 200),
  },
];

let app: TestApp;
const clients = {} as Record<Caller, ApiClient>;
const projects = {} as Record<Visibility, number>;

before(async () => {
  app = await startApp();
  const owner = await app.createUser({ username: 'matrix-owner' });
  clients.owner = owner.client;
  clients.anonymous = app.anonymous;
  clients.administrator = app.root;
  clients['non-member'] = (await app.createUser({ username: 'matrix-stranger' })).client;
  const members: Partial<Record<Caller, number>> = {};
  for (const role of Object.keys(ROLES) as Caller[]) {
    const created = await app.createUser({ username: `matrix-${role}` });
    clients[role] = created.client;
    members[role] = created.user.id;
  }
  for (const visibility of Object.keys(LEVELS) as Visibility[]) {
    const project = await owner.client.post('/projects', { name: `matrix ${visibility}`, visibility_level: LEVELS[visibility] });
    assert.equal(project.status, 201);
    projects[visibility] = project.body.id;
    for (const [role, userId] of Object.entries(members)) await grantProjectRole(app, project.body.id, userId!, ROLES[role as Caller]!);
  }
});
after(() => app.close());

for (const visibility of Object.keys(LEVELS) as Visibility[]) {
  describe(`a ${visibility} project`, () => {
    for (const endpoint of ENDPOINTS) {
      test(endpoint.name, async () => {
        const actual: Record<string, number> = {};
        const expected: Record<string, number> = {};
        for (const caller of CALLERS) {
          actual[caller] = (await endpoint.call(clients[caller], projects[visibility])).status;
          expected[caller] = endpoint.expected(visibility, caller);
        }
        assert.deepEqual(actual, expected);
      });
    }
  });
}
