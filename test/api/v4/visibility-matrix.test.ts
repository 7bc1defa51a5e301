import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { sweepForSecrets, sweepRequests, type Answer } from '../../support/access-matrix';
import { createSecretWorld, secretReaders, visibilityOf, type SecretWorld } from '../../support/secret-world';

/**
 * v3's secrets sweep over `/api/v4/openapi.json`: every GET route, as every kind of caller, over
 * projects of each visibility that hold a confidential issue, a private snippet, a merge request
 * and notes on them. v4 lets anonymous callers read public projects: they may see what anyone sees
 * there (the merge request and its code), and nothing else.
 */
let app: TestApp;
let world: SecretWorld;

before(async () => {
  app = await startApp();
  world = await createSecretWorld(app);
});
after(() => app.close());

describe('v4: secrets: confidential issues, private snippets, merge requests of private projects and notes on them', () => {
  let result: Awaited<ReturnType<typeof sweepForSecrets>>;

  before(async () => {
    const document = await app.root.get('/api/v4/openapi.json');
    assert.equal(document.status, 200);
    const { groupId, extra } = world;
    const others = (template: string, name: string) => {
      if ((template.startsWith('/api/v4/groups/{id}') || template.startsWith('/api/v4/namespaces/{id}')) && name === 'id')
        return String(groupId);
      if (/^\/api\/v4\/users\/\{(id|user_id)\}/.test(template) || name === 'user_id') return String(extra.author.user.id);
      return undefined;
    };
    // v3's `scope=all` (issues, merge requests) names no scope of jobs or runners, which answer 400 to it.
    const requests = sweepRequests(document.body, world.swept, others, '/api/v4').map((request) =>
      /\/(jobs|runners|runners\/all)\?/.test(request.path) ? { ...request, path: request.path.replace('scope=all&', '') } : request,
    );
    result = await sweepForSecrets(
      secretReaders(world),
      requests,
      world.swept.flatMap((project) => project.seeds.secrets),
      visibilityOf(world),
      { anonymousReads: true },
    );
  });

  test('no GET route of the OpenAPI document shows one to a caller who may not read it', () => {
    const lines = result.leaks.map((leak) => `  ${leak.reader} saw ${leak.secret.text} in ${leak.status} GET ${leak.path}`);
    assert.deepEqual(lines, [], `${result.leaks.length} secrets shown to callers who may not read them:\n${lines.join('\n')}`);
  });

  test('every secret is shown to someone who may read it', () => {
    assert.deepEqual(
      result.unseen.map((secret) => secret.text),
      [],
    );
  });

  test('no answer is a 5xx', () => {
    assert.deepEqual(result.failures, []);
  });

  // The world holds no jobs, pipelines, triggers, environments, hooks, keys or award emoji, whose
  // routes answer 404 to every caller (the fuzz reaches them with a world of its own): a quarter of the GETs.
  test('the routes are reached: most GETs as the admin answer 2xx, and anonymous callers read the public project', () => {
    const admin = result.answers.filter((answer) => answer.reader === 'admin');
    const ok = (answers: Answer[]) => answers.filter((answer) => answer.status < 300);
    const refused = admin.filter((answer) => answer.status >= 300).map((answer) => `  ${answer.status} GET ${answer.path}`);
    assert.ok(admin.length > 200, `only ${admin.length} GETs were sent as the admin`);
    assert.ok(
      ok(admin).length >= admin.length * 0.7,
      `only ${ok(admin).length} of ${admin.length} GETs as the admin answered 2xx:\n${refused.join('\n')}`,
    );
    const publicProject = world.projects.public.id;
    const anonymous = result.answers.filter(
      (answer) => answer.reader === 'anonymous' && answer.path.startsWith(`/api/v4/projects/${publicProject}/`),
    );
    assert.ok(ok(anonymous).length >= 30, `anonymous callers read only ${ok(anonymous).length} routes of the public project`);
  });
});
