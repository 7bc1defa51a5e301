import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { WebClient } from '../support/web';

/** Paths under the web door's fixed prefixes that name no page are its 404 page, not the API's JSON 404. */
let app: TestApp;
before(async () => {
  app = await startApp();
});
after(() => app?.close());

const isWebNotFound = (page: { status: number; headers: Headers }) =>
  page.status === 404 && /^text\/html/.test(page.headers.get('content-type') ?? '');

describe('unknown paths under the web door’s prefixes', () => {
  test('/users/…, /u/…, /groups/…, /explore/… and /-/… answer the web 404 page', async () => {
    const web = new WebClient(app.url);
    for (const path of [
      '/users/unknown',
      '/users/someone/deeper/still',
      '/u/someone/else',
      '/groups/nothing/here',
      '/explore/unknown',
      '/explore/projects/starred/x',
      '/-/unknown',
      '/explore',
      '/users',
      '/groups',
    ]) {
      const page = await web.get(path);
      assert.ok(isWebNotFound(page), `${path}: ${page.status} ${page.headers.get('content-type')}`);
      assert.match(page.text, /<!DOCTYPE html>/i, path);
    }
  });

  test('the pages under them still answer', async () => {
    const web = new WebClient(app.url);
    assert.equal((await web.get('/users/sign_in')).status, 200);
    assert.equal((await web.get('/explore/projects')).status, 200);
    assert.equal((await web.get('/u/root')).status, 200);
  });

  test('the APIs’ prefixes keep their JSON 404', async () => {
    const web = new WebClient(app.url);
    for (const path of ['/api/v3/nothing', '/api/v4/nothing', '/api', '/oauth/nothing/here']) {
      const answer = await web.get(path);
      assert.equal(answer.status, 404, path);
      assert.match(answer.headers.get('content-type') ?? '', /json/, path);
    }
  });
});

describe('paths of the other doors that a page’s pattern would match', () => {
  test('an unknown POST, PUT or GET under /api/v4, /api/v3, /ci and /oauth is the API’s JSON 404, not a page', async () => {
    for (const [method, path] of [
      ['POST', '/api/v4/nothing/merge_requests'],
      ['POST', '/api/v4/nothing/issues'],
      ['PUT', '/api/v3/nothing/here'],
      ['GET', '/api/v4/branches'],
      ['POST', '/ci/api/issues'],
      ['POST', '/oauth/nothing/issues'],
    ]) {
      const response = await fetch(`${app.url}${path}`, {
        method,
        redirect: 'manual',
        headers: { 'content-type': 'application/json' },
        body: method === 'GET' ? undefined : '{}',
      });
      assert.equal(response.status, 404, `${method} ${path}`);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/, `${method} ${path}`);
    }
  });
});
