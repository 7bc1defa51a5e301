import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createProjectWorld, type ProjectWorld } from '../../support/project-world';
import type { SeedCommit } from '../../support/repo';

/*
 * A note whose body is one award emoji only is an award (GitLab 8.12's `Notes::CreateService`):
 * on an issue, a merge request and a project snippet alike, whichever way the emoji is written.
 */

let app: TestApp;
let world: ProjectWorld<'developer'>;

const COMMITS: SeedCommit[] = [
  { files: { 'README.md': 'hello\n' }, message: 'initial\n' },
  { branch: 'feature', startRef: 'master', files: { 'a.txt': 'a\n' }, message: 'add a\n' },
];

before(async () => {
  app = await startApp();
  world = await createProjectWorld(app, { roles: ['developer'], commits: COMMITS });
});
after(() => app.close());

type Kind = 'issues' | 'merge_requests' | 'snippets';
const AWARDABLE_TYPE: Record<Kind, string> = { issues: 'Issue', merge_requests: 'MergeRequest', snippets: 'Snippet' };

/** Runs `use` on a fresh noteable of the owner's (so the developer may vote on it); a merge request is closed after, so the next can be opened. */
async function withNoteable(kind: Kind, use: (target: { id: number; path: string }) => Promise<void>): Promise<void> {
  const fields = {
    issues: { title: 'An issue' },
    merge_requests: { source_branch: 'feature', target_branch: 'master', title: 'A change' },
    snippets: { title: 'A snippet', file_name: 'a.rb', code: 'puts 1', visibility_level: 0 },
  }[kind];
  const created = await world.owner.client.post(`/projects/${world.id}/${kind}`, fields);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const path = `/projects/${world.id}/${kind}/${created.body.id}`;
  try {
    await use({ id: created.body.id, path });
  } finally {
    if (kind === 'merge_requests') assert.equal((await world.owner.client.put(path, { state_event: 'close' })).status, 200);
  }
}

// Each body, and the award it makes.
const AWARDS: [string, string][] = [
  [':thumbsup:', 'thumbsup'],
  [':+1:', 'thumbsup'],
  ['👍', 'thumbsup'],
  [':-1:', 'thumbsdown'],
  ['👎', 'thumbsdown'],
  [':tada:', 'tada'],
  ['🎉', 'tada'],
  // The emoji with and without its presentation selector (U+FE0F) are one.
  ['❤️', 'heart'],
  ['❤', 'heart'],
  ['  :thumbsup:  \n', 'thumbsup'],
  ['\n👍\t', 'thumbsup'],
];

// Bodies that are comments: more than one emoji, words beside it, or no known emoji.
const COMMENTS = [':thumbsup: thanks', '👍 thanks', '👍👍', ':thumbsup::thumbsup:', ':not_an_emoji:', 'thumbsup', ':thumbsup'];

for (const kind of ['issues', 'merge_requests', 'snippets'] as const) {
  describe(`POST /projects/:id/${kind}/:noteable_id/notes`, () => {
    for (const [body, name] of AWARDS) {
      test(`${JSON.stringify(body)} is the award ${name}, answered as the AwardEmoji entity`, () =>
        withNoteable(kind, async (target) => {
          const response = await world.developer.client.post(`${target.path}/notes`, { body });
          assert.equal(response.status, 201, JSON.stringify(response.body));
          assert.deepEqual(Object.keys(response.body), [
            'id',
            'name',
            'user',
            'created_at',
            'updated_at',
            'awardable_id',
            'awardable_type',
          ]);
          assert.equal(response.body.name, name);
          assert.equal(response.body.awardable_id, target.id);
          assert.equal(response.body.awardable_type, AWARDABLE_TYPE[kind]);
          assert.equal(response.body.user.username, world.developer.user.username);
          // Recorded as an award, and no note.
          const awards = (await world.owner.client.get(`${target.path}/award_emoji`)).body;
          assert.deepEqual(
            awards.map((award: any) => [award.id, award.name, award.user.username]),
            [[response.body.id, name, world.developer.user.username]],
          );
          assert.deepEqual((await world.owner.client.get(`${target.path}/notes`)).body, []);
          if (kind !== 'snippets') {
            const counted = (await world.owner.client.get(target.path)).body;
            assert.deepEqual([counted.upvotes, counted.downvotes], [name === 'thumbsup' ? 1 : 0, name === 'thumbsdown' ? 1 : 0]);
          }
          // The same award again is 8.12's 404, and still no note.
          const twice = await world.developer.client.post(`${target.path}/notes`, { body });
          assert.equal(twice.status, 404);
          assert.deepEqual(twice.body, { message: '404 Note {:name=>["has already been taken"]} Not Found' });
          assert.equal((await world.owner.client.get(`${target.path}/award_emoji`)).body.length, 1);
        }));
    }

    test('a body with more than one emoji only is a comment', () =>
      withNoteable(kind, async (target) => {
        for (const body of COMMENTS) {
          const response = await world.developer.client.post(`${target.path}/notes`, { body });
          assert.equal(response.status, 201, JSON.stringify(response.body));
          assert.equal(response.body.body, body);
          assert.equal(response.body.noteable_type, AWARDABLE_TYPE[kind]);
        }
        assert.deepEqual((await world.owner.client.get(`${target.path}/award_emoji`)).body, []);
      }));
  });
}
