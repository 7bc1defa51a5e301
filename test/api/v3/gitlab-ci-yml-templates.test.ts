import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { jobsForRef, parseCiConfig, type CiConfig } from '../../../src/services/ci/yaml/index';

/** Forge's own `.gitlab-ci.yml` templates must be pipelines Forge itself accepts and runs. */

let app: TestApp;
let templates: Array<{ name: string; content: string }>;
before(async () => {
  app = await startApp();
  const list = await app.anonymous.get('/gitlab_ci_ymls');
  templates = [];
  for (const { name } of list.body) templates.push((await app.anonymous.get(`/gitlab_ci_ymls/${encodeURIComponent(name)}`)).body);
});
after(() => app.close());

const PAGES = [
  'Brunch',
  'Doxygen',
  'HTML',
  'Harp',
  'Hexo',
  'Hugo',
  'Hyde',
  'JBake',
  'Jekyll',
  'Lektor',
  'Metalsmith',
  'Middleman',
  'Nanoc',
  'Octopress',
  'Pelican',
];

function parsed(name: string, content: string): CiConfig {
  const result = parseCiConfig(content);
  assert.ok(result.ok, `${name}: ${result.ok ? '' : result.error}`);
  return result.config;
}

const onMaster = (config: CiConfig) => jobsForRef(config.jobs, { ref: 'master', tag: false, trigger: false, projectPath: 'group/project' });

describe('the .gitlab-ci.yml templates', () => {
  test('all 26 are served', () => {
    assert.equal(templates.length, 26);
  });

  test('each one is valid for POST /ci/lint, explanation line included', async () => {
    for (const { name, content } of templates) {
      const response = await app.anonymous.post('/api/v3/ci/lint', { content });
      assert.equal(response.status, 200, name);
      assert.deepEqual(response.body, { status: 'valid', errors: [] }, name);
    }
  });

  test('each one runs jobs on master, each job in one of its stages, with an image and a script', () => {
    for (const { name, content } of templates) {
      const config = parsed(name, content);
      const jobs = onMaster(config);
      assert.ok(jobs.length > 0, name);
      for (const job of config.jobs) {
        assert.ok(config.stages.includes(job.stage), `${name}: ${job.name}`);
        assert.ok(job.image, `${name}: ${job.name} has no image`);
        assert.ok(job.script.length > 0, `${name}: ${job.name} has no script`);
      }
    }
  });

  test('each Pages one publishes public/ from master in a job named pages', () => {
    for (const { name, content } of templates.filter((t) => PAGES.includes(t.name))) {
      const config = parsed(name, content);
      const pages = config.jobs.find((job) => job.name === 'pages');
      assert.ok(pages, `${name} has no pages job`);
      assert.deepEqual(pages.artifacts?.paths, ['public'], name);
      assert.deepEqual(pages.only, ['master'], name);
      assert.ok(onMaster(config).includes(pages), name);
      assert.ok(!jobsForRef(config.jobs, { ref: 'feature', tag: false, trigger: false }).includes(pages), name);
    }
  });

  test('the general ones are not Pages sites', () => {
    for (const { name, content } of templates.filter((t) => !PAGES.includes(t.name))) {
      assert.ok(!parsed(name, content).jobs.some((job) => job.name === 'pages'), name);
    }
  });
});
