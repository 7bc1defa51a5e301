import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';
import { createProjectWorld } from '../../support/project-world';
import { eventually } from '../../support/eventually';
import { seedCommit } from '../../support/repo';
import { resolveCommit } from '../../../src/git/commits';
import { findBranch } from '../../../src/git/refs';
import { repoPathOf } from '../../../src/services/repository/repositories';

let app: TestApp;

interface Fixture {
  id: number;
  path: string;
  owner: ApiClient;
  developer: ApiClient;
  reporter: ApiClient;
  guest: ApiClient;
  /** master's head */
  head: string;
  /** `feature`'s head, one commit ahead of master */
  feature: string;
}

let projects = 0;

/** A private project with `master` (two commits) and `feature` (one more), and a member of each role. */
async function fixture(visibility = 0): Promise<Fixture> {
  const world = await createProjectWorld(app, {
    name: `branches${++projects}`,
    visibility,
    roles: ['developer', 'reporter', 'guest'],
    commits: [
      { files: { 'README.md': '# readme\n' }, message: 'first\n' },
      {
        files: { 'a.txt': 'a\n' },
        message: 'Second commit\n\nwith a body\n',
        author: { name: 'Grace Author', email: 'grace@example.com' },
        time: new Date('2016-09-20T06:06:12Z'),
      },
    ],
  });
  const [, head] = world.shas;
  const feature = await seedCommit(app, world.id, { branch: 'feature', startRef: head, files: { 'f.txt': 'f\n' } });
  const { id, path, owner, developer, reporter, guest } = world;
  return { id, path, owner: owner.client, developer: developer.client, reporter: reporter.client, guest: guest.client, head, feature };
}

const branchUrl = (p: Fixture, name: string) => `/projects/${p.id}/repository/branches/${encodeURIComponent(name)}`;

async function protectRule(p: Fixture, name: string, push: boolean, merge: boolean): Promise<void> {
  await app.services.protectedBranches.protect(p.id, name, { developersCanPush: push, developersCanMerge: merge });
}

/** The shared fixture of tests that change nothing. */
let p: Fixture;
before(async () => {
  app = await startApp();
  p = await fixture();
});
after(() => app.close());

describe('GET /projects/:id/repository/branches', () => {
  test('array of Branch sorted by name alphabetically', async () => {
    const q = await fixture();
    await seedCommit(app, q.id, { branch: 'Zed', startRef: q.head, files: { 'z.txt': 'z' } });
    await seedCommit(app, q.id, { branch: 'a/b', startRef: q.head, files: { 'ab.txt': 'ab' } });
    const response = await q.reporter.get(`/projects/${q.id}/repository/branches`);
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.body.map((branch: { name: string }) => branch.name),
      ['Zed', 'a/b', 'feature', 'master'],
    );
    assert.equal(response.headers.get('x-total'), null, 'not paginated');
  });

  test('each Branch carries its protection and the raw commit', async () => {
    const response = await p.reporter.get(`/projects/${p.id}/repository/branches`);
    const master = response.body.find((branch: { name: string }) => branch.name === 'master');
    assert.deepEqual(Object.keys(master), ['name', 'commit', 'protected', 'developers_can_push', 'developers_can_merge']);
    assert.equal(master.commit.id, p.head);
  });

  test('protection comes from exact and wildcard rules', async () => {
    const q = await fixture();
    await seedCommit(app, q.id, { branch: 'release-1', startRef: q.head, files: { 'r.txt': 'r' } });
    await protectRule(q, 'release-*', true, false);
    await protectRule(q, 'master', false, true);
    const response = await q.reporter.get(`/projects/${q.id}/repository/branches`);
    const byName = Object.fromEntries(response.body.map((branch: any) => [branch.name, branch]));
    assert.deepEqual(
      [byName['release-1'].protected, byName['release-1'].developers_can_push, byName['release-1'].developers_can_merge],
      [true, true, false],
    );
    assert.deepEqual([byName.master.protected, byName.master.developers_can_push, byName.master.developers_can_merge], [true, false, true]);
    assert.deepEqual(
      [byName.feature.protected, byName.feature.developers_can_push, byName.feature.developers_can_merge],
      [false, false, false],
    );
  });

  test('an empty repository has no branches', async () => {
    const { client } = await app.createUser();
    const created = await client.post('/projects', { name: 'empty-branches' });
    const response = await client.get(`/projects/${created.body.id}/repository/branches`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, []);
  });

  test('a guest of a private project gets 403', async () => {
    const response = await p.guest.get(`/projects/${p.id}/repository/branches`);
    assert.equal(response.status, 403);
    assert.deepEqual(response.body, { message: '403 Forbidden' });
  });

  test('anyone signed in reads a public project; nobody reads without a token', async () => {
    const q = await fixture(20);
    const { client: stranger } = await app.createUser();
    assert.equal((await stranger.get(`/projects/${q.id}/repository/branches`)).status, 200);
    assert.equal((await app.anonymous.get(`/projects/${q.id}/repository/branches`)).status, 401);
  });

  test('a project hidden from the caller is 404 Project Not Found', async () => {
    const { client: stranger } = await app.createUser();
    const response = await stranger.get(`/projects/${p.id}/repository/branches`);
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 Project Not Found' });
  });

  test('the project may be named by its path', async () => {
    const response = await p.owner.get(`/projects/${encodeURIComponent(p.path)}/repository/branches`);
    assert.equal(response.status, 200);
    assert.equal(response.body.length, 2);
  });
});

describe('GET /projects/:id/repository/branches/:branch', () => {
  test('Branch with the raw commit hash', async () => {
    const response = await p.reporter.get(branchUrl(p, 'master'));
    assert.equal(response.status, 200);
    const parent = (await resolveCommit(app.ctx.git, repoPathOf(app.ctx, p.id), `${p.head}~1`))!.id;
    assert.deepEqual(response.body, {
      name: 'master',
      commit: {
        id: p.head,
        message: 'Second commit\n\nwith a body\n',
        parent_ids: [parent],
        authored_date: '2016-09-20T06:06:12.000+00:00',
        author_name: 'Grace Author',
        author_email: 'grace@example.com',
        committed_date: '2016-09-20T06:06:12.000+00:00',
        committer_name: 'Grace Author',
        committer_email: 'grace@example.com',
      },
      protected: false,
      developers_can_push: false,
      developers_can_merge: false,
    });
  });

  test('names with a slash, encoded or not, and with dots', async () => {
    const q = await fixture();
    await seedCommit(app, q.id, { branch: 'topic/login', startRef: q.head, files: { 'l.txt': 'l' } });
    await seedCommit(app, q.id, { branch: 'with.1.2.3', startRef: q.head, files: { 'd.txt': 'd' } });
    for (const url of [branchUrl(q, 'topic/login'), `/projects/${q.id}/repository/branches/topic/login`]) {
      const response = await q.reporter.get(url);
      assert.equal(response.status, 200, url);
      assert.equal(response.body.name, 'topic/login');
    }
    const dotted = await q.reporter.get(branchUrl(q, 'with.1.2.3'));
    assert.equal(dotted.status, 200);
    assert.equal(dotted.body.name, 'with.1.2.3');
  });

  test('an unknown branch is 404 Branch Not Found', async () => {
    const response = await p.reporter.get(branchUrl(p, 'unknown'));
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 Branch Not Found' });
  });

  test('a guest of a private project gets 403', async () => {
    assert.equal((await p.guest.get(branchUrl(p, 'master'))).status, 403);
  });
});

describe('PUT /projects/:id/repository/branches/:branch/protect', () => {
  const flags = (body: any) => [body.protected, body.developers_can_push, body.developers_can_merge];

  test('without flags: protected, developers can neither push nor merge', async () => {
    const q = await fixture();
    const response = await q.owner.put(`${branchUrl(q, 'feature')}/protect`);
    assert.equal(response.status, 200);
    assert.equal(response.body.name, 'feature');
    assert.equal(response.body.commit.id, q.feature);
    assert.deepEqual(flags(response.body), [true, false, false]);
  });

  test('developers_can_push and developers_can_merge take the given flags', async () => {
    const cases: Array<[Record<string, unknown>, boolean[]]> = [
      [{ developers_can_push: true }, [true, true, false]],
      [{ developers_can_merge: 'true' }, [true, false, true]],
      [{ developers_can_push: 1, developers_can_merge: 'yes' }, [true, true, true]],
      [{ developers_can_push: 'tru', developers_can_merge: 'tr' }, [true, false, false]],
    ];
    for (const [body, expected] of cases) {
      const q = await fixture();
      const response = await q.owner.put(`${branchUrl(q, 'feature')}/protect`, body);
      assert.equal(response.status, 200);
      assert.deepEqual(flags(response.body), expected, JSON.stringify(body));
    }
  });

  test('on a protected branch, false clears a flag and an unparsable value leaves it', async () => {
    const q = await fixture();
    await q.owner.put(`${branchUrl(q, 'feature')}/protect`, { developers_can_push: true, developers_can_merge: true });
    const unchanged = await q.owner.form('PUT', `/projects/${q.id}/repository/branches/feature/protect`, {
      developers_can_push: 'foobar',
      developers_can_merge: 'foo',
    });
    assert.deepEqual(flags(unchanged.body), [true, true, true]);
    const cleared = await q.owner.put(`${branchUrl(q, 'feature')}/protect`, { developers_can_push: false, developers_can_merge: 'false' });
    assert.deepEqual(flags(cleared.body), [true, false, false]);
  });

  test('200 even if already protected', async () => {
    const q = await fixture();
    assert.equal((await q.owner.put(`${branchUrl(q, 'feature')}/protect`)).status, 200);
    const again = await q.owner.put(`${branchUrl(q, 'feature')}/protect`);
    assert.equal(again.status, 200);
    assert.deepEqual(flags(again.body), [true, false, false]);
    assert.equal((await app.services.protectedBranches.list(q.id)).length, 1);
  });

  test('branch names with a slash, encoded or not', async () => {
    const q = await fixture();
    await seedCommit(app, q.id, { branch: 'topic/x', startRef: q.head, files: { 'x.txt': 'x' } });
    const encoded = await q.owner.put(`${branchUrl(q, 'topic/x')}/protect`);
    assert.equal(encoded.status, 200);
    assert.equal(encoded.body.name, 'topic/x');
    assert.equal(encoded.body.protected, true);
    const plain = await q.owner.put(`/projects/${q.id}/repository/branches/topic/x/unprotect`);
    assert.equal(plain.status, 200);
    assert.equal(plain.body.protected, false);
  });

  test('an unknown branch is 404 Branch Not Found', async () => {
    const response = await p.owner.put(`${branchUrl(p, 'unknown')}/protect`);
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 Branch Not Found' });
  });

  test('only masters protect: a developer gets 403', async () => {
    const response = await p.developer.put(`${branchUrl(p, 'feature')}/protect`);
    assert.equal(response.status, 403);
    assert.deepEqual(response.body, { message: '403 Forbidden' });
  });
});

describe('PUT /projects/:id/repository/branches/:branch/unprotect', () => {
  test('protected false and both developer flags false', async () => {
    const q = await fixture();
    await q.owner.put(`${branchUrl(q, 'feature')}/protect`, { developers_can_push: true, developers_can_merge: true });
    const response = await q.owner.put(`${branchUrl(q, 'feature')}/unprotect`);
    assert.equal(response.status, 200);
    assert.deepEqual(
      [response.body.name, response.body.protected, response.body.developers_can_push, response.body.developers_can_merge],
      ['feature', false, false, false],
    );
  });

  test('200 even if already unprotected', async () => {
    const response = await p.owner.put(`${branchUrl(p, 'feature')}/unprotect`);
    assert.equal(response.status, 200);
    assert.equal(response.body.protected, false);
  });

  test('a wildcard rule still protects the branch', async () => {
    const q = await fixture();
    await protectRule(q, 'feat*', false, false);
    await q.owner.put(`${branchUrl(q, 'feature')}/protect`);
    const response = await q.owner.put(`${branchUrl(q, 'feature')}/unprotect`);
    assert.equal(response.status, 200);
    assert.equal(response.body.protected, true);
  });

  test('an unknown branch is 404 Branch Not Found', async () => {
    const response = await p.owner.put(`${branchUrl(p, 'unknown')}/unprotect`);
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 Branch Not Found' });
  });

  test('only masters unprotect: a developer gets 403', async () => {
    assert.equal((await p.developer.put(`${branchUrl(p, 'feature')}/unprotect`)).status, 403);
  });
});

describe('POST /projects/:id/repository/branches', () => {
  test('200 with the Branch, from a commit SHA', async () => {
    const q = await fixture();
    const response = await q.developer.post(`/projects/${q.id}/repository/branches`, { branch_name: 'feature1', ref: q.head });
    assert.equal(response.status, 200);
    assert.equal(response.body.name, 'feature1');
    assert.equal(response.body.commit.id, q.head);
    assert.equal(response.body.protected, false);
    assert.equal((await findBranch(app.ctx.git, repoPathOf(app.ctx, q.id), 'feature1'))?.commit.id, q.head);
  });

  test('from a branch name or a tag', async () => {
    const q = await fixture();
    const fromBranch = await q.developer.form('POST', `/projects/${q.id}/repository/branches`, {
      branch_name: 'from-feature',
      ref: 'feature',
    });
    assert.equal(fromBranch.status, 200);
    assert.equal(fromBranch.body.commit.id, q.feature);
    await q.owner.post(`/projects/${q.id}/repository/tags`, { tag_name: 'v1', ref: q.head, message: 'annotated' });
    const fromTag = await q.developer.post(`/projects/${q.id}/repository/branches`, { branch_name: 'from-tag', ref: 'v1' });
    assert.equal(fromTag.status, 200);
    assert.equal(fromTag.body.commit.id, q.head);
  });

  test('the push is processed: an event is recorded', async () => {
    const q = await fixture();
    await q.developer.post(`/projects/${q.id}/repository/branches`, { branch_name: 'evented', ref: q.head });
    const event = await eventually(() =>
      app.ctx.db.selectFrom('events').selectAll().where('project_id', '=', q.id).where('data', 'is not', null).executeTakeFirst(),
    );
    assert.ok(event.data?.includes('refs/heads/evented'));
  });

  test('400 Branch name is invalid', async () => {
    const response = await p.developer.post(`/projects/${p.id}/repository/branches`, { branch_name: 'new design', ref: p.head });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: 'Branch name is invalid' });
  });

  test('400 Branch already exists', async () => {
    const response = await p.developer.post(`/projects/${p.id}/repository/branches`, { branch_name: 'feature', ref: p.head });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: 'Branch already exists' });
  });

  test('400 Invalid reference name', async () => {
    const response = await p.developer.post(`/projects/${p.id}/repository/branches`, { branch_name: 'new_branch', ref: 'foo' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: 'Invalid reference name' });
  });

  test('branch_name and ref are required', async () => {
    const noName = await p.developer.post(`/projects/${p.id}/repository/branches`, { ref: p.head });
    assert.equal(noName.status, 400);
    assert.deepEqual(noName.body, { message: '400 (Bad request) "branch_name" not given' });
    const noRef = await p.developer.post(`/projects/${p.id}/repository/branches`, { branch_name: 'x' });
    assert.deepEqual(noRef.body, { message: '400 (Bad request) "ref" not given' });
  });

  test('a developer may not create a branch that protected rules keep from developers', async () => {
    const q = await fixture();
    await protectRule(q, 'release-*', false, false);
    const refused = await q.developer.post(`/projects/${q.id}/repository/branches`, { branch_name: 'release-1', ref: q.head });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, { message: 'You are not allowed to push code to protected branches on this project.' });
    const byMaster = await q.owner.post(`/projects/${q.id}/repository/branches`, { branch_name: 'release-1', ref: q.head });
    assert.equal(byMaster.status, 200);
    assert.equal(byMaster.body.protected, true);
  });

  test('a reporter gets 403', async () => {
    const response = await p.reporter.post(`/projects/${p.id}/repository/branches`, { branch_name: 'nope', ref: p.head });
    assert.equal(response.status, 403);
  });
});

describe('DELETE /projects/:id/repository/branches/:branch', () => {
  test('200 with body {branch_name}', async () => {
    const q = await fixture();
    const response = await q.developer.delete(branchUrl(q, 'feature'));
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { branch_name: 'feature' });
    assert.equal(await findBranch(app.ctx.git, repoPathOf(app.ctx, q.id), 'feature'), undefined);
  });

  test('names with a slash and dots', async () => {
    const q = await fixture();
    await seedCommit(app, q.id, { branch: 'fix/with.1.2.3', startRef: q.head, files: { 'w.txt': 'w' } });
    const response = await q.developer.delete(`/projects/${q.id}/repository/branches/fix/with.1.2.3`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { branch_name: 'fix/with.1.2.3' });
  });

  test('404 when the branch does not exist', async () => {
    const response = await p.developer.delete(branchUrl(p, 'foobar'));
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: 'No such branch' });
  });

  test('400 for the HEAD branch', async () => {
    const response = await p.owner.delete(branchUrl(p, 'master'));
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: 'Cannot remove HEAD branch' });
  });

  test('400 for a protected branch', async () => {
    const q = await fixture();
    await protectRule(q, 'feature', true, true);
    const response = await q.owner.delete(branchUrl(q, 'feature'));
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: 'Protected branch cant be removed' });
  });

  test('a reporter gets 403', async () => {
    assert.equal((await p.reporter.delete(branchUrl(p, 'feature'))).status, 403);
  });
});
