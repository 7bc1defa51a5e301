import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';

let app: TestApp;
before(async () => {
  app = await startApp();
});
after(() => app.close());

const year = new Date().getFullYear();

const LICENSEE_8_KEYS = [
  'agpl-3.0',
  'apache-2.0',
  'artistic-2.0',
  'bsd-2-clause',
  'bsd-3-clause',
  'cc0-1.0',
  'epl-1.0',
  'gpl-2.0',
  'gpl-3.0',
  'isc',
  'lgpl-2.1',
  'lgpl-3.0',
  'mit',
  'mpl-2.0',
  'unlicense',
];

const LICENSE_FIELDS = [
  'conditions',
  'content',
  'description',
  'featured',
  'html_url',
  'key',
  'limitations',
  'name',
  'nickname',
  'permissions',
  'popular',
  'source_url',
];

describe('GET /licenses', () => {
  test('needs no token and lists the 15 licenses of licensee 8.0.0, in key order', async () => {
    const response = await app.anonymous.get('/licenses');
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.body.map((license: any) => license.key),
      LICENSEE_8_KEYS,
    );
  });

  test('each item is a whole License template, popular and featured alike', async () => {
    const response = await app.anonymous.get('/licenses');
    for (const license of response.body) {
      assert.deepEqual(Object.keys(license).sort(), LICENSE_FIELDS);
      assert.equal(license.popular, license.featured);
      assert.equal(license.html_url, `http://choosealicense.com/licenses/${license.key}/`);
      for (const list of [license.conditions, license.permissions, license.limitations]) {
        assert.ok(Array.isArray(list) && list.every((item: unknown) => typeof item === 'string'));
      }
    }
  });

  test('popular with any non-blank value lists only the popular ones: mit, apache-2.0, gpl-3.0', async () => {
    for (const popular of ['1', 'true', 'false', 'yes']) {
      const response = await app.anonymous.get('/licenses', { popular });
      assert.equal(response.status, 200);
      assert.deepEqual(
        response.body.map((license: any) => license.key),
        ['apache-2.0', 'gpl-3.0', 'mit'],
      );
      assert.ok(response.body.every((license: any) => license.popular === true && license.featured === true));
    }
  });

  test('a blank popular lists them all', async () => {
    const response = await app.anonymous.get('/licenses', { popular: '' });
    assert.equal(response.body.length, 15);
  });
});

describe('GET /licenses/:key', () => {
  test('mit: MIT License, no nickname, popular, with its choosealicense.com metadata', async () => {
    const response = await app.anonymous.get('/licenses/mit');
    assert.equal(response.status, 200);
    const mit = response.body;
    assert.equal(mit.key, 'mit');
    assert.equal(mit.name, 'MIT License');
    assert.equal(mit.nickname, null);
    assert.equal(mit.popular, true);
    assert.equal(mit.featured, true);
    assert.equal(mit.html_url, 'http://choosealicense.com/licenses/mit/');
    assert.match(mit.source_url, /^https?:\/\/(www\.)?opensource\.org\/licenses\/MIT$/);
    assert.match(mit.description, /permissive license/);
    assert.deepEqual(mit.conditions, ['include-copyright']);
    assert.deepEqual(mit.permissions, ['commercial-use', 'modifications', 'distribution', 'private-use']);
    assert.ok(mit.limitations.length > 0);
    assert.match(mit.content, /MIT License/);
    assert.match(mit.content, /Permission is hereby granted, free of charge/);
  });

  test('gpl-3.0 has its nickname', async () => {
    const response = await app.anonymous.get('/licenses/gpl-3.0');
    assert.equal(response.body.name, 'GNU General Public License v3.0');
    assert.equal(response.body.nickname, 'GNU GPLv3');
  });

  test('the year, project and copyright holder placeholders are filled', async () => {
    const fill = { project: 'My Awesome Project', fullname: 'Anton Holder' };
    const mit = await app.anonymous.get('/licenses/mit', fill);
    assert.ok(mit.body.content.includes(`Copyright (c) ${year} Anton Holder`));
    for (const key of ['agpl-3.0', 'gpl-3.0', 'gpl-2.0']) {
      const response = await app.anonymous.get(`/licenses/${key}`, fill);
      assert.ok(response.body.content.includes('My Awesome Project'), key);
      assert.ok(response.body.content.includes(`Copyright (C) ${year}  Anton Holder`), key);
    }
    const apache = await app.anonymous.get('/licenses/apache-2.0', fill);
    assert.ok(apache.body.content.includes(`Copyright ${year} Anton Holder`));
  });

  test("without fullname, the authenticated caller's name is the copyright holder", async () => {
    const { client } = await app.createUser({ name: 'Caller Name' });
    const response = await client.get('/licenses/mit');
    assert.equal(response.status, 200);
    assert.ok(response.body.content.includes(`Copyright (c) ${year} Caller Name`));
    const blank = await client.get('/licenses/mit', { fullname: '' });
    assert.ok(blank.body.content.includes(`Copyright (c) ${year} Caller Name`));
  });

  test("fullname wins over the caller's name", async () => {
    const response = await app.root.get('/licenses/mit', { fullname: 'Someone Else' });
    assert.ok(response.body.content.includes(`Copyright (c) ${year} Someone Else`));
  });

  test('anonymous without fullname: only the year is filled', async () => {
    const response = await app.anonymous.get('/licenses/mit');
    assert.ok(response.body.content.includes(`Copyright (c) ${year} [fullname]`));
  });

  test('an unknown token is anonymous here, not refused', async () => {
    const response = await app.as('not-a-token').get('/licenses/mit');
    assert.equal(response.status, 200);
    assert.ok(response.body.content.includes('[fullname]'));
  });

  test('project and holder are inserted literally', async () => {
    const response = await app.anonymous.get('/licenses/mit', { fullname: '$& \\0 $1' });
    assert.ok(response.body.content.includes(`Copyright (c) ${year} $& \\0 $1`));
  });

  test('an unknown key is 404 License Not Found', async () => {
    const response = await app.anonymous.get('/licenses/not-a-license');
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 License Not Found' });
  });
});

describe('GET /gitignores', () => {
  test('needs no token and lists more than 15 templates by name only', async () => {
    const response = await app.anonymous.get('/gitignores');
    assert.equal(response.status, 200);
    assert.ok(response.body.length > 15);
    for (const item of response.body) assert.deepEqual(Object.keys(item), ['name']);
  });

  test('language templates come first, then the Global ones, each group sorted', async () => {
    const names: string[] = (await app.anonymous.get('/gitignores')).body.map((item: any) => item.name);
    // Zephir is a language template, Anjuta the first Global one.
    const firstGlobal = names.indexOf('Anjuta');
    assert.ok(names.indexOf('Zephir') >= 0 && names.indexOf('Zephir') < firstGlobal);
    for (const group of [names.slice(0, firstGlobal), names.slice(firstGlobal)]) assert.deepEqual(group, [...group].sort());
  });
});

describe('GET /gitignores/:name', () => {
  test('Ruby: its name and the file text', async () => {
    const response = await app.anonymous.get('/gitignores/Ruby');
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body).sort(), ['content', 'name']);
    assert.equal(response.body.name, 'Ruby');
    assert.ok(response.body.content.includes('*.gem'));
  });

  test('a Global template is found by its base name', async () => {
    const response = await app.anonymous.get('/gitignores/Vim');
    assert.equal(response.status, 200);
    assert.equal(response.body.name, 'Vim');
  });

  test('an unknown name is 404 gitignore Not Found', async () => {
    const response = await app.anonymous.get('/gitignores/Not-A-Template');
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 gitignore Not Found' });
  });
});

/** The names GitLab 8.12 listed, general ones then Pages ones; Forge's templates are its own. */
const GITLAB_CI_YML_NAMES = [
  'C++',
  'Docker',
  'Elixir',
  'Grails',
  'LaTeX',
  'Maven',
  'Nodejs',
  'Ruby',
  'Rust',
  'Scala',
  'Swift',
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

const CI_YML_EXPLANATION = '# This file is a template, and might need editing before it works on your project.\n';

describe('GET /gitlab_ci_ymls', () => {
  test("needs no token and lists 8.12's names by base name, general ones then Pages ones", async () => {
    const response = await app.anonymous.get('/gitlab_ci_ymls');
    assert.equal(response.status, 200);
    for (const item of response.body) assert.deepEqual(Object.keys(item), ['name']);
    assert.deepEqual(
      response.body.map((item: any) => item.name),
      GITLAB_CI_YML_NAMES,
    );
  });
});

describe('GET /gitlab_ci_ymls/:name', () => {
  test("Ruby: its name and the file under 8.12's explanation line", async () => {
    const response = await app.anonymous.get('/gitlab_ci_ymls/Ruby');
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body).sort(), ['content', 'name']);
    assert.equal(response.body.name, 'Ruby');
    assert.ok(response.body.content.startsWith(CI_YML_EXPLANATION));
    assert.match(response.body.content, /^image: ruby:/m);
    assert.match(response.body.content, /bundle exec rake test/);
  });

  test('every template starts with the explanation line; names with + are found', async () => {
    for (const name of GITLAB_CI_YML_NAMES) {
      const response = await app.anonymous.get(`/gitlab_ci_ymls/${encodeURIComponent(name)}`);
      assert.equal(response.status, 200, name);
      assert.equal(response.body.name, name);
      assert.ok(response.body.content.startsWith(CI_YML_EXPLANATION), name);
    }
    assert.equal((await app.anonymous.get('/gitlab_ci_ymls/C++')).body.name, 'C++');
  });

  test('a Pages template is found by its base name, not by its folder', async () => {
    assert.equal((await app.anonymous.get('/gitlab_ci_ymls/Jekyll')).body.name, 'Jekyll');
    assert.equal((await app.anonymous.get('/gitlab_ci_ymls/Pages%2FJekyll')).status, 404);
  });

  test('an unknown name is 404 gitlab_ci_yml Not Found', async () => {
    for (const name of ['Not-A-Template', 'ruby', 'Pages']) {
      const response = await app.anonymous.get(`/gitlab_ci_ymls/${name}`);
      assert.equal(response.status, 404, name);
      assert.deepEqual(response.body, { message: '404 gitlab_ci_yml Not Found' });
    }
  });
});
