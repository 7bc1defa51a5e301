import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';
import { createPeople, createProjectWorld, type Caller, type ProjectWorld, type Role } from '../../support/project-world';
import { assertAccess, expectedStatus, VISIBILITY_LEVELS, type Visibility } from '../../support/access-matrix';

/**
 * The visibility rules as one table: for each visibility level, each kind of caller
 * and a representative read and write endpoint, the status the caller gets.
 */
/** Reads need a signed-in caller (401), then visibility (404). */
const readStatus = (v: Visibility, c: Caller) => expectedStatus(v, c);
/** Writes need a signed-in caller (401), then visibility (404), then the role (403). */
const writeStatus = (v: Visibility, c: Caller, minimum: Caller, success: number) => expectedStatus(v, c, { minimum, success });

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
const projects = {} as Record<Visibility, ProjectWorld<Role>>;

before(async () => {
  app = await startApp();
  // One cast of callers, with the same role on a project of each visibility.
  const people = await createPeople(app);
  for (const visibility of Object.keys(VISIBILITY_LEVELS) as Visibility[]) {
    projects[visibility] = await createProjectWorld(app, { people, name: `matrix ${visibility}`, visibility: VISIBILITY_LEVELS[visibility] });
  }
});
after(() => app.close());

for (const visibility of Object.keys(VISIBILITY_LEVELS) as Visibility[]) {
  describe(`a ${visibility} project`, () => {
    for (const endpoint of ENDPOINTS) {
      test(endpoint.name, async () => {
        const project = projects[visibility];
        await assertAccess(project.clients, (client) => endpoint.call(client, project.id), (caller) => endpoint.expected(visibility, caller));
      });
    }
  });
}
