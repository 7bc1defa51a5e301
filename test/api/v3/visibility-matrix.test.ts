import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';
import type { Caller } from '../../support/project-world';
import { createSecretWorld, secretReaders, visibilityOf, type SecretWorld } from '../../support/secret-world';
import {
  assertAccess,
  expectedStatus,
  sweepForSecrets,
  sweepRequests,
  VISIBILITY_LEVELS,
  type SweptProject,
  type Visibility,
} from '../../support/access-matrix';

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
let projects: SecretWorld['projects'];
let swept: SweptProject[];
/** The sweep's readers beyond the world's callers: an access requester, and the confidential issues' author and assignee (guests). */
let extra: SecretWorld['extra'];
let groupId: number;
let world: SecretWorld;

before(async () => {
  app = await startApp();
  world = await createSecretWorld(app);
  ({ projects, swept, extra, groupId } = world);
});
after(() => app.close());

for (const visibility of Object.keys(VISIBILITY_LEVELS) as Visibility[]) {
  describe(`a ${visibility} project`, () => {
    for (const endpoint of ENDPOINTS) {
      test(endpoint.name, async () => {
        const project = projects[visibility];
        await assertAccess(
          project.clients,
          (client) => endpoint.call(client, project.id),
          (caller) => endpoint.expected(visibility, caller),
        );
      });
    }
  });
}

describe('secrets: confidential issues, private snippets, merge requests of private projects and notes on them', () => {
  test('no GET route of the OpenAPI document shows one to a caller who may not read it', async () => {
    const document = await app.root.get('/api/v3/openapi.json');
    assert.equal(document.status, 200);
    const others = (template: string, name: string) => {
      if (template.startsWith('/api/v3/groups/{id}') && name === 'id') return String(groupId);
      if (template.startsWith('/api/v3/users/') && (name === 'id' || name === 'uid')) return String(extra.author.user.id);
      if (name === 'query') return 'matrix';
      return undefined;
    };
    const requests = sweepRequests(document.body, swept, others);
    const { leaks, unseen, failures } = await sweepForSecrets(
      secretReaders(world),
      requests,
      swept.flatMap((project) => project.seeds.secrets),
      visibilityOf(world),
    );
    const lines = leaks.map((leak) => `  ${leak.reader} saw ${leak.secret.text} in ${leak.status} GET ${leak.path}`);
    assert.deepEqual(lines, [], `${leaks.length} secrets shown to callers who may not read them:\n${lines.join('\n')}`);
    assert.deepEqual(
      unseen.map((secret) => secret.text),
      [],
      'every secret is shown to someone who may read it',
    );
    assert.deepEqual(failures, [], 'no answer is a 5xx');
  });
});

describe('todos on what their owner may not read', () => {
  test('DELETE /todos/:id answers 404 and shows nothing of the target', async () => {
    const guest = projects.private.guest;
    const todos = await app.ctx.db
      .selectFrom('todos')
      .select('id')
      .where('user_id', '=', guest.user.id)
      .where('project_id', '=', projects.private.id)
      .execute();
    assert.equal(todos.length, 2);
    for (const { id } of todos) {
      const response = await guest.client.delete(`/todos/${id}`);
      assert.equal(response.status, 404);
      assert.ok(!response.text.includes('SECRET'), response.text);
    }
  });
});

describe('merge requests: in a private project for reporters and up, in internal and public ones for every reader', () => {
  const reads = (seeds: { mergeRequestId: number; mergeRequestNoteId: number }) => {
    const mr = seeds.mergeRequestId;
    return [
      'merge_requests',
      `merge_requests/${mr}`,
      `merge_requests/${mr}/changes`,
      `merge_requests/${mr}/commits`,
      `merge_requests/${mr}/versions`,
      `merge_requests/${mr}/closes_issues`,
      `merge_requests/${mr}/comments`,
      `merge_requests/${mr}/notes`,
      `merge_requests/${mr}/notes/${seeds.mergeRequestNoteId}`,
      `merge_requests/${mr}/award_emoji`,
      `merge_requests/${mr}/notes/${seeds.mergeRequestNoteId}/award_emoji`,
      `merge_request/${mr}`,
      `merge_request/${mr}/changes`,
      `merge_request/${mr}/commits`,
      `merge_request/${mr}/closes_issues`,
      `merge_request/${mr}/comments`,
    ];
  };
  /** A guest of a private project is answered as for any object they may not see; everyone else as for the project. */
  const status = (visibility: Visibility, caller: Caller) => {
    const expected = expectedStatus(visibility, caller, { minimum: visibility === 'private' ? 'reporter' : 'non-member' });
    return expected === 403 ? 404 : expected;
  };

  for (const visibility of Object.keys(VISIBILITY_LEVELS) as Visibility[]) {
    test(`every GET route of a merge request in a ${visibility} project`, async () => {
      const project = swept.find((p) => p.visibility === visibility)!;
      for (const path of reads(project.seeds)) {
        const bodies: unknown[] = [];
        await assertAccess(
          projects[visibility].clients,
          async (client) => {
            const response = await client.get(`/projects/${project.id}/${path}`);
            if (response.status === 404) bodies.push(response.body);
            return response;
          },
          (caller) => status(visibility, caller),
          `GET …/${path}`,
        );
        for (const body of bodies)
          assert.ok(
            ['404 Not Found', '404 Project Not Found'].includes((body as { message?: string }).message ?? ''),
            JSON.stringify(body),
          );
      }
    });

    test(`a guest's notes, award emoji, todos and subscriptions on a merge request of a ${visibility} project`, async () => {
      const project = swept.find((p) => p.visibility === visibility)!;
      // The assignee of the confidential issue is a guest with no todo of their own on the merge request.
      const guest = extra.assignee.client;
      const base = `/projects/${project.id}/merge_requests/${project.seeds.mergeRequestId}`;
      // The subscription first: a commenter is subscribed already.
      const writes = [
        await guest.post(`${base}/subscription`),
        await guest.post(`${base}/todo`),
        await guest.post(`${base}/award_emoji`, { name: 'thumbsup' }),
        await guest.post(`${base}/notes`, { body: 'a guest writes' }),
        await guest.post(`${base}/comments`, { note: 'a guest writes' }),
      ];
      const statuses = writes.map((response) => response.status);
      assert.deepEqual(statuses, visibility === 'private' ? [404, 404, 404, 404, 404] : [201, 201, 201, 201, 201]);
    });
  }
});
