import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { createRootProject } from '../support/repo';
import { buildRow, putArtifacts, putTrace, seedPipeline } from '../support/ci';
import { eventually } from '../support/eventually';
import { removeExpiredArtifacts } from '../../src/services/ci/builds/artifacts-expiry';
import { artifactsKey, projectFilesPrefix, traceKey } from '../../src/services/ci/builds/files';

let app: TestApp;
let project: { id: number; head: string };

before(async () => {
  app = await startApp();
  project = await createRootProject(app, 'expiry');
});
after(() => app.close());

const hour = 3_600_000;
const at = (offset: number) => new Date(Date.now() + offset).toISOString();

describe('the hourly expiry of artifacts (ci.expire_artifacts)', () => {
  test('artifacts whose expiry has passed are removed: the file goes from the store, the build forgets them', async () => {
    const { builds } = await seedPipeline(app, project.id, {
      sha: project.head,
      builds: [
        { name: 'expired', status: 'success' },
        { name: 'later', status: 'success' },
        { name: 'kept', status: 'success' },
      ],
    });
    const [expired, later, kept] = builds;
    await putArtifacts(app, project.id, expired, { expireAt: at(-hour) });
    await putArtifacts(app, project.id, later, { expireAt: at(hour) });
    await putArtifacts(app, project.id, kept, { expireAt: null });
    await putTrace(app, project.id, expired, 'the trace stays');

    assert.equal(await removeExpiredArtifacts(app.ctx), 1);

    const files = app.ctx.files;
    const key = (id: number) => ({ project_id: project.id, id });
    assert.equal(await files.stat(artifactsKey(key(expired))), undefined);
    const row = await buildRow(app, expired);
    assert.deepEqual([row.artifacts_file, row.artifacts_size, row.artifacts_expire_at], [null, null, null]);
    assert.ok(await files.stat(traceKey(key(expired))), 'only the artifacts expire');
    for (const id of [later, kept]) {
      assert.ok(await files.stat(artifactsKey(key(id))));
      assert.equal((await buildRow(app, id)).artifacts_file, 'ci_build_artifacts.zip');
    }
    assert.equal(await removeExpiredArtifacts(app.ctx), 0, 'nothing left to remove');
  });
});

describe('removing a project', () => {
  test('removes the traces and artifacts of its builds from the store', async () => {
    const doomed = await createRootProject(app, 'doomed');
    const { builds } = await seedPipeline(app, doomed.id, { sha: doomed.head, builds: [{ name: 'test', status: 'success' }] });
    await putTrace(app, doomed.id, builds[0], 'trace');
    await putArtifacts(app, doomed.id, builds[0]);
    const survivor = await seedPipeline(app, project.id, { sha: project.head, builds: [{ name: 'other', status: 'success' }] });
    await putTrace(app, project.id, survivor.builds[0], 'mine');

    assert.equal((await app.root.delete(`/projects/${doomed.id}`)).status, 200);
    await eventually(async () => (await app.ctx.files.list(projectFilesPrefix(doomed.id))).length === 0, {
      message: 'the files of the removed project to go',
    });
    assert.ok(await app.ctx.files.stat(traceKey({ project_id: project.id, id: survivor.builds[0] })), 'another project keeps its files');
  });
});
