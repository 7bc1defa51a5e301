import assert from 'node:assert/strict';
import type { TestApp } from '../../support/app';
import { cloneUrl, commit, git, workTree } from '../../support/git';
import { projectRunnersToken } from '../../support/ci-world';
import { RunnerV4Client } from '../../support/runner-v4-client';

/** A project of root's; with files that include a `.gitlab-ci.yml`, the push makes a pipeline. */
export async function pushedProject(app: TestApp, name: string, files?: Record<string, string>) {
  const created = await app.root.post('/projects', { name });
  assert.equal(created.status, 201);
  const project = { id: created.body.id as number, path: created.body.path_with_namespace as string };
  const push = async (more: Record<string, string>) => {
    const dir = await workTree('master', { 'README.md': 'hi\n' });
    await commit(dir, more, 'ci');
    const pushed = await git(['push', '-q', '-f', cloneUrl(app.url, project.path, 'root', 'rootpassword'), 'master'], dir);
    assert.equal(pushed.code, 0, pushed.stderr);
    return (await git(['rev-parse', 'HEAD'], dir)).stdout.trim();
  };
  if (files) await push(files);
  return { ...project, push };
}

/** A runner of the project's own (so other tests' jobs never reach it), registered over v4. */
export async function projectRunner(app: TestApp, projectId: number, opts: { tagList?: string } = {}): Promise<RunnerV4Client> {
  const runner = new RunnerV4Client(app.url);
  const response = await runner.register(await projectRunnersToken(app, projectId), opts);
  assert.equal(response.status, 201, response.text);
  return runner;
}
