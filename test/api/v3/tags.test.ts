import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';
import { createProjectWorld } from '../../support/project-world';
import { eventually } from '../../support/eventually';
import { parseTag } from '../../../src/git/objects';
import { findTag } from '../../../src/git/refs';
import { createTag } from '../../../src/git/write';
import { repoPathOf } from '../../../src/services/repository/repositories';

let app: TestApp;

interface Fixture {
  id: number;
  owner: ApiClient;
  developer: ApiClient;
  developerUser: { name: string; email: string };
  reporter: ApiClient;
  guest: ApiClient;
  head: string;
}

let projects = 0;

/** A private project with two commits on master and a member of each role. */
async function fixture(): Promise<Fixture> {
  const world = await createProjectWorld(app, {
    name: `tags${++projects}`,
    roles: ['developer', 'reporter', 'guest'],
    commits: [{ files: { 'README.md': '# readme\n' } }, { files: { 'a.txt': 'a\n' } }],
  });
  const { id, owner, developer, reporter, guest } = world;
  return {
    id,
    owner: owner.client,
    developer: developer.client,
    developerUser: developer.user,
    reporter: reporter.client,
    guest: guest.client,
    head: world.shas[1],
  };
}

const tagsUrl = (p: Fixture) => `/projects/${p.id}/repository/tags`;
const tagUrl = (p: Fixture, name: string) => `${tagsUrl(p)}/${encodeURIComponent(name)}`;

/** The shared fixture of tests that change nothing: tags v1.0.0 (lightweight), v1.1.0 (annotated, with a release). */
let p: Fixture;
before(async () => {
  app = await startApp();
  p = await fixture();
  await p.developer.post(tagsUrl(p), { tag_name: 'v1.0.0', ref: 'master~1' });
  await p.developer.post(tagsUrl(p), { tag_name: 'v1.1.0', ref: 'master', message: 'Version 1.1.0', release_description: 'Notes' });
});
after(() => app.close());

describe('GET /projects/:id/repository/tags', () => {
  test('array of Tag sorted by name descending, with message and release', async () => {
    const response = await p.reporter.get(tagsUrl(p));
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.body.map((tag: any) => [tag.name, tag.message, tag.release]),
      [
        ['v1.1.0', 'Version 1.1.0', { tag_name: 'v1.1.0', description: 'Notes' }],
        ['v1.0.0', null, null],
      ],
    );
    assert.deepEqual(Object.keys(response.body[0]), ['name', 'message', 'commit', 'release']);
    assert.equal(response.body[0].commit.id, p.head);
    assert.deepEqual(Object.keys(response.body[0].commit), [
      'id',
      'message',
      'parent_ids',
      'authored_date',
      'author_name',
      'author_email',
      'committed_date',
      'committer_name',
      'committer_email',
    ]);
    assert.equal(response.headers.get('x-total'), null, 'not paginated');
  });

  test('a tag of a tree has a null commit', async () => {
    const q = await fixture();
    const repoPath = repoPathOf(app.ctx, q.id);
    const tree = await app.ctx.git.objects.info(repoPath, `${q.head}^{tree}`);
    await createTag(app.ctx.git, repoPath, 'tree-tag', tree!.oid);
    const response = await q.reporter.get(tagsUrl(q));
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.body.map((tag: any) => [tag.name, tag.commit]),
      [['tree-tag', null]],
    );
  });

  test('a guest of a private project gets 403; nobody reads without a token', async () => {
    assert.equal((await p.guest.get(tagsUrl(p))).status, 403);
    assert.equal((await app.anonymous.get(tagsUrl(p))).status, 401);
  });
});

describe('GET /projects/:id/repository/tags/:tag_name', () => {
  test('the Tag', async () => {
    const response = await p.reporter.get(tagUrl(p, 'v1.1.0'));
    assert.equal(response.status, 200);
    assert.equal(response.body.name, 'v1.1.0');
    assert.equal(response.body.message, 'Version 1.1.0');
    assert.equal(response.body.commit.id, p.head);
    assert.deepEqual(response.body.release, { tag_name: 'v1.1.0', description: 'Notes' });
  });

  test('names with a slash, encoded or not', async () => {
    const q = await fixture();
    await q.developer.post(tagsUrl(q), { tag_name: 'release/2.0', ref: q.head });
    for (const url of [tagUrl(q, 'release/2.0'), `${tagsUrl(q)}/release/2.0`]) {
      const response = await q.reporter.get(url);
      assert.equal(response.status, 200, url);
      assert.equal(response.body.name, 'release/2.0');
    }
  });

  test('an unknown tag is 404 Tag Not Found', async () => {
    const response = await p.reporter.get(tagUrl(p, 'v9'));
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 Tag Not Found' });
  });

  test('a guest of a private project gets 403', async () => {
    assert.equal((await p.guest.get(tagUrl(p, 'v1.0.0'))).status, 403);
  });
});

describe('POST /projects/:id/repository/tags', () => {
  test('201 with a lightweight Tag', async () => {
    const q = await fixture();
    const response = await q.developer.post(tagsUrl(q), { tag_name: 'v7.0.1', ref: 'master' });
    assert.equal(response.status, 201);
    assert.equal(response.body.name, 'v7.0.1');
    assert.equal(response.body.message, null);
    assert.equal(response.body.commit.id, q.head);
    assert.equal(response.body.release, null);
    assert.equal((await findTag(app.ctx.git, repoPathOf(app.ctx, q.id), 'v7.0.1'))?.targetId, q.head);
  });

  test('with release_description, the Tag has its release', async () => {
    const q = await fixture();
    const response = await q.developer.form('POST', tagsUrl(q), { tag_name: 'v7.0.1', ref: 'master', release_description: 'Wow' });
    assert.equal(response.status, 201);
    assert.deepEqual(response.body.release, { tag_name: 'v7.0.1', description: 'Wow' });
  });

  test('a blank release_description makes no release', async () => {
    const q = await fixture();
    const response = await q.developer.post(tagsUrl(q), { tag_name: 'v7.0.1', ref: 'master', release_description: '' });
    assert.equal(response.status, 201);
    assert.equal(response.body.release, null);
  });

  test('a message makes an annotated tag, tagged by the caller', async () => {
    const q = await fixture();
    const response = await q.developer.post(tagsUrl(q), { tag_name: 'v7.1.0', ref: q.head, message: '  Release 7.1.0\n' });
    assert.equal(response.status, 201);
    assert.equal(response.body.message, 'Release 7.1.0');
    assert.equal(response.body.commit.id, q.head);
    const repoPath = repoPathOf(app.ctx, q.id);
    const ref = await findTag(app.ctx.git, repoPath, 'v7.1.0');
    const object = await app.ctx.git.objects.read(repoPath, ref!.targetId);
    assert.equal(object?.type, 'tag');
    const tag = parseTag(object!.oid, object!.content);
    assert.equal(tag.targetId, q.head);
    assert.deepEqual([tag.tagger?.name, tag.tagger?.email], [q.developerUser.name, q.developerUser.email]);
  });

  test('a tag of an annotated tag points at its commit', async () => {
    const response = await p.owner.post(tagsUrl(p), { tag_name: 'copy-of-v1.1.0', ref: 'v1.1.0' });
    assert.equal(response.status, 201);
    assert.equal((await findTag(app.ctx.git, repoPathOf(app.ctx, p.id), 'copy-of-v1.1.0'))?.targetId, p.head);
    await p.owner.delete(tagUrl(p, 'copy-of-v1.1.0'));
  });

  test('the tag push is processed: an event is recorded', async () => {
    const q = await fixture();
    await q.developer.post(tagsUrl(q), { tag_name: 'v-evented', ref: q.head });
    const event = await eventually(() =>
      app.ctx.db.selectFrom('events').selectAll().where('project_id', '=', q.id).where('data', 'is not', null).executeTakeFirst(),
    );
    assert.ok(event.data?.includes('refs/tags/v-evented'));
  });

  test('400 Tag name invalid', async () => {
    const response = await p.developer.post(tagsUrl(p), { tag_name: 'v 1.0.0', ref: 'master' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: 'Tag name invalid' });
  });

  test('400 when the tag already exists', async () => {
    const response = await p.developer.post(tagsUrl(p), { tag_name: 'v1.0.0', ref: 'master' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: 'Tag v1.0.0 already exists' });
  });

  test('400 when the target is invalid', async () => {
    const response = await p.developer.post(tagsUrl(p), { tag_name: 'v8.0.0', ref: 'foo' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: 'Target foo is invalid' });
  });

  test('tag_name and ref are required', async () => {
    const noName = await p.developer.post(tagsUrl(p), { ref: 'master' });
    assert.equal(noName.status, 400);
    assert.deepEqual(noName.body, { message: '400 (Bad request) "tag_name" not given' });
    const noRef = await p.developer.post(tagsUrl(p), { tag_name: 'v9' });
    assert.deepEqual(noRef.body, { message: '400 (Bad request) "ref" not given' });
  });

  test('a reporter gets 403', async () => {
    const response = await p.reporter.post(tagsUrl(p), { tag_name: 'v9', ref: 'master' });
    assert.equal(response.status, 403);
    assert.deepEqual(response.body, { message: '403 Forbidden' });
  });
});

describe('DELETE /projects/:id/repository/tags/:tag_name', () => {
  test('200 with body {tag_name}; the tag and its release go', async () => {
    const q = await fixture();
    await q.developer.post(tagsUrl(q), { tag_name: 'v1', ref: 'master', release_description: 'old notes' });
    const response = await q.developer.delete(tagUrl(q, 'v1'));
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { tag_name: 'v1' });
    assert.equal(await findTag(app.ctx.git, repoPathOf(app.ctx, q.id), 'v1'), undefined);
    const again = await q.developer.post(tagsUrl(q), { tag_name: 'v1', ref: 'master' });
    assert.equal(again.body.release, null);
  });

  test('names with a slash', async () => {
    const q = await fixture();
    await q.developer.post(tagsUrl(q), { tag_name: 'release/1.0', ref: 'master' });
    const response = await q.developer.delete(`${tagsUrl(q)}/release/1.0`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { tag_name: 'release/1.0' });
  });

  test('404 when the tag does not exist', async () => {
    const response = await p.developer.delete(tagUrl(p, 'v9'));
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: 'No such tag' });
  });

  test('a reporter gets 403', async () => {
    assert.equal((await p.reporter.delete(tagUrl(p, 'v1.0.0'))).status, 403);
  });
});

describe('POST /projects/:id/repository/tags/:tag_name/release', () => {
  test('201 with the Release', async () => {
    const q = await fixture();
    await q.developer.post(tagsUrl(q), { tag_name: 'v1', ref: 'master' });
    const response = await q.developer.post(`${tagUrl(q, 'v1')}/release`, { description: 'Awesome release' });
    assert.equal(response.status, 201);
    assert.deepEqual(response.body, { tag_name: 'v1', description: 'Awesome release' });
    assert.deepEqual((await q.reporter.get(tagUrl(q, 'v1'))).body.release, { tag_name: 'v1', description: 'Awesome release' });
  });

  test('tags with a slash', async () => {
    const q = await fixture();
    await q.developer.post(tagsUrl(q), { tag_name: 'release/1.0', ref: 'master' });
    const response = await q.developer.post(`${tagsUrl(q)}/release/1.0/release`, { description: 'slashed' });
    assert.equal(response.status, 201);
    assert.deepEqual(response.body, { tag_name: 'release/1.0', description: 'slashed' });
  });

  test('404 Tag does not exist', async () => {
    const response = await p.developer.post(`${tagUrl(p, 'v9')}/release`, { description: 'x' });
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: 'Tag does not exist' });
  });

  test('409 Release already exists', async () => {
    const response = await p.developer.post(`${tagUrl(p, 'v1.1.0')}/release`, { description: 'again' });
    assert.equal(response.status, 409);
    assert.deepEqual(response.body, { message: 'Release already exists' });
  });

  test('description is required', async () => {
    const response = await p.developer.post(`${tagUrl(p, 'v1.0.0')}/release`, {});
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: '400 (Bad request) "description" not given' });
  });

  test('a reporter gets 403', async () => {
    assert.equal((await p.reporter.post(`${tagUrl(p, 'v1.0.0')}/release`, { description: 'x' })).status, 403);
  });
});

describe('PUT /projects/:id/repository/tags/:tag_name/release', () => {
  test('200 with the updated Release', async () => {
    const q = await fixture();
    await q.developer.post(tagsUrl(q), { tag_name: 'v1', ref: 'master', release_description: 'first' });
    const response = await q.developer.put(`${tagUrl(q, 'v1')}/release`, { description: 'second' });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { tag_name: 'v1', description: 'second' });
  });

  test('404 Tag does not exist', async () => {
    const response = await p.developer.put(`${tagUrl(p, 'v9')}/release`, { description: 'x' });
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: 'Tag does not exist' });
  });

  test('404 Release does not exist', async () => {
    const response = await p.developer.put(`${tagUrl(p, 'v1.0.0')}/release`, { description: 'x' });
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: 'Release does not exist' });
  });

  test('description is required', async () => {
    const response = await p.developer.put(`${tagUrl(p, 'v1.1.0')}/release`, { description: '' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: '400 (Bad request) "description" not given' });
  });

  test('a reporter gets 403', async () => {
    assert.equal((await p.reporter.put(`${tagUrl(p, 'v1.1.0')}/release`, { description: 'x' })).status, 403);
  });
});

describe('NUL bytes in what POST /repository/tags hands to git', () => {
  test('a tag message with a NUL byte: 400, and no tag is made (git would keep the byte and cut the message there)', async () => {
    const response = await p.developer.post(tagsUrl(p), { tag_name: 'v-nul', ref: 'master', message: 'Release\u0000 notes' });
    assert.deepEqual([response.status, response.body], [400, { message: '400 (Bad request) "message" is invalid' }]);
    assert.equal(await findTag(app.ctx.git, repoPathOf(app.ctx, p.id), 'v-nul'), undefined);
  });

  test('a NUL byte in the tag name or ref is refused as an invalid one', async () => {
    const name = await p.developer.post(tagsUrl(p), { tag_name: 'v\u00001', ref: 'master' });
    assert.deepEqual([name.status, name.body], [400, { message: '400 (Bad request) "tag_name" is invalid' }]);
    const ref = await p.developer.post(tagsUrl(p), { tag_name: 'v-nul-ref', ref: 'mas\u0000ter' });
    assert.deepEqual([ref.status, ref.body], [400, { message: '400 (Bad request) "ref" is invalid' }]);
  });
});
