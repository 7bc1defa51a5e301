import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';

const KEYS = ['active', 'color', 'ends_at', 'font', 'id', 'message', 'starts_at'];
const HOUR = 60 * 60 * 1000;

let app: TestApp;
let user: ApiClient;
before(async () => {
  app = await startApp();
  user = (await app.createUser()).client;
});
after(() => app.close());

const iso = (ms: number) => new Date(ms).toISOString();

async function createMessage(fields: Record<string, unknown> = {}) {
  const response = await app.root.post('/broadcast_messages', { message: 'Maintenance tonight', ...fields });
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body;
}

describe('administrators only', () => {
  const routes = (id: number): [string, string, Record<string, unknown> | undefined][] => [
    ['GET', '/broadcast_messages', undefined],
    ['GET', `/broadcast_messages/${id}`, undefined],
    ['POST', '/broadcast_messages', { message: 'Hello' }],
    ['PUT', `/broadcast_messages/${id}`, { message: 'Changed' }],
    ['DELETE', `/broadcast_messages/${id}`, undefined],
  ];

  test('a guest receives 401 Unauthorized on every route', async () => {
    const { id } = await createMessage();
    for (const [method, path, body] of routes(id)) {
      const response = await app.anonymous.request(method, path, body);
      assert.equal(response.status, 401, `${method} ${path}`);
      assert.deepEqual(response.body, { message: '401 Unauthorized' });
    }
  });

  test('a guest receives 401 even without the required message', async () => {
    const response = await app.anonymous.post('/broadcast_messages', {});
    assert.equal(response.status, 401);
  });

  test('a normal user receives 403 Forbidden on every route', async () => {
    const { id } = await createMessage();
    for (const [method, path, body] of routes(id)) {
      const response = await user.request(method, path, body);
      assert.equal(response.status, 403, `${method} ${path}`);
      assert.deepEqual(response.body, { message: '403 Forbidden' });
    }
    const still = await app.root.get(`/broadcast_messages/${id}`);
    assert.equal(still.body.message, 'Maintenance tonight');
  });
});

describe('GET /broadcast_messages', () => {
  test('answers an array of Broadcast message with exactly the seven keys, oldest first', async () => {
    const first = await createMessage({ message: 'first' });
    const second = await createMessage({ message: 'second' });
    const response = await app.root.get('/broadcast_messages', { per_page: 100 });
    assert.equal(response.status, 200);
    assert.ok(Array.isArray(response.body));
    for (const item of response.body) assert.deepEqual(Object.keys(item).sort(), KEYS);
    const ids = response.body.map((item: { id: number }) => item.id);
    assert.ok(ids.indexOf(first.id) < ids.indexOf(second.id));
    assert.deepEqual(
      [...ids].sort((a, b) => a - b),
      ids,
    );
  });

  test('is paginated with page and per_page and the pagination headers', async () => {
    await createMessage();
    await createMessage();
    const all = await app.root.get('/broadcast_messages', { per_page: 100 });
    const total = all.body.length;
    const page = await app.root.get('/broadcast_messages', { page: 2, per_page: 1 });
    assert.equal(page.status, 200);
    assert.equal(page.body.length, 1);
    assert.equal(page.body[0].id, all.body[1].id);
    assert.equal(page.headers.get('x-total'), String(total));
    assert.equal(page.headers.get('x-total-pages'), String(total));
    assert.equal(page.headers.get('x-page'), '2');
    assert.equal(page.headers.get('x-per-page'), '1');
    assert.equal(page.headers.get('x-prev-page'), '1');
    assert.match(page.headers.get('link') ?? '', /rel="next"/);
  });
});

describe('GET /broadcast_messages/:id', () => {
  test('answers the Broadcast message', async () => {
    const created = await createMessage({ message: 'read me', color: '#123456', font: '#abc' });
    const response = await app.root.get(`/broadcast_messages/${created.id}`);
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body).sort(), KEYS);
    assert.deepEqual(response.body, created);
  });

  test('an unknown id answers 404 Not found', async () => {
    const response = await app.root.get('/broadcast_messages/999999');
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 Not found' });
  });

  test('a non-numeric id matches no route: 404', async () => {
    const response = await app.root.get('/broadcast_messages/abc');
    assert.equal(response.status, 404);
  });
});

describe('POST /broadcast_messages', () => {
  test('201 with the message; the window defaults to now until one hour after now', async () => {
    const before = Date.now();
    const response = await app.root.post('/broadcast_messages', { message: 'Default window' });
    const after = Date.now();
    assert.equal(response.status, 201);
    assert.deepEqual(Object.keys(response.body).sort(), KEYS);
    assert.equal(response.body.message, 'Default window');
    const startsAt = Date.parse(response.body.starts_at);
    assert.ok(startsAt >= before - 1 && startsAt <= after, response.body.starts_at);
    assert.equal(Date.parse(response.body.ends_at) - startsAt, HOUR);
    assert.match(response.body.starts_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  test('a message created with the default window is active', async () => {
    const created = await createMessage();
    assert.equal(created.active, true);
  });

  test('color defaults to #E75E40 and font to #FFFFFF', async () => {
    const created = await createMessage();
    assert.equal(created.color, '#E75E40');
    assert.equal(created.font, '#FFFFFF');
  });

  test('given starts_at, ends_at, color and font are kept', async () => {
    const created = await createMessage({
      starts_at: '2016-07-02T10:11:12Z',
      ends_at: '2016-07-02T13:11:12.000Z',
      color: '#000000',
      font: '#cecece',
    });
    assert.equal(created.starts_at, '2016-07-02T10:11:12.000Z');
    assert.equal(created.ends_at, '2016-07-02T13:11:12.000Z');
    assert.equal(created.color, '#000000');
    assert.equal(created.font, '#cecece');
  });

  test('parameters may come as a form', async () => {
    const response = await app.root.form('POST', '/broadcast_messages', {
      message: 'From a form',
      color: '#fff',
      starts_at: '2016-07-02 10:11:12 UTC',
    });
    assert.equal(response.status, 201);
    assert.equal(response.body.message, 'From a form');
    assert.equal(response.body.color, '#fff');
    assert.equal(response.body.starts_at, '2016-07-02T10:11:12.000Z');
  });

  test('times with an offset are stored in UTC; times without a zone are UTC whatever the server zone', async () => {
    const zone = process.env.TZ;
    process.env.TZ = 'Asia/Tokyo';
    try {
      const created = await createMessage({ starts_at: '2016-07-02T12:11:12+02:00', ends_at: '2016-07-02 13:11:12' });
      assert.equal(created.starts_at, '2016-07-02T10:11:12.000Z');
      assert.equal(created.ends_at, '2016-07-02T13:11:12.000Z');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  test('missing message answers 400 {"error":"message is missing"}; a blank one is given, and can\'t be blank', async () => {
    for (const body of [{}, { color: '#fff' }]) {
      const response = await app.root.post('/broadcast_messages', body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.deepEqual(response.body, { error: 'message is missing' });
    }
    // Grape's `requires` took a blank value as given; the record refused it.
    for (const body of [{ message: '' }, { message: '   ' }]) {
      const response = await app.root.post('/broadcast_messages', body);
      assert.deepEqual([response.status, response.body], [400, { message: { message: ["can't be blank"] } }], JSON.stringify(body));
    }
  });

  test('an invalid color or font answers 400 must be a valid color code', async () => {
    for (const color of ['000000', '#00000', '#0000000', '#ggg', 'red', '#12', '']) {
      const response = await app.root.post('/broadcast_messages', { message: 'x', color });
      assert.equal(response.status, 400, color);
      assert.deepEqual(response.body, { message: { color: ['must be a valid color code'] } });
    }
    const font = await app.root.post('/broadcast_messages', { message: 'x', font: '#1234' });
    assert.equal(font.status, 400);
    assert.deepEqual(font.body, { message: { font: ['must be a valid color code'] } });
    const both = await app.root.post('/broadcast_messages', { message: 'x', color: 'blue', font: 'white' });
    assert.deepEqual(both.body, { message: { color: ['must be a valid color code'], font: ['must be a valid color code'] } });
  });

  test('colour codes of 3 or 6 hex digits in either case are valid', async () => {
    const created = await createMessage({ color: '#AbC', font: '#a1B2c3' });
    assert.equal(created.color, '#AbC');
    assert.equal(created.font, '#a1B2c3');
  });

  test('unparseable times answer 400 naming the field', async () => {
    for (const value of ['tomorrow', '2016-13-01T00:00:00Z', '2016-02-30', '2016-07-02T25:00:00Z', '12345']) {
      const response = await app.root.post('/broadcast_messages', { message: 'x', starts_at: value });
      assert.equal(response.status, 400, value);
      assert.deepEqual(response.body, { message: { starts_at: ['is invalid'] } });
    }
    const both = await app.root.post('/broadcast_messages', { message: 'x', starts_at: 'soon', ends_at: 'later' });
    assert.deepEqual(both.body, { message: { starts_at: ['is invalid'], ends_at: ['is invalid'] } });
    const blank = await app.root.post('/broadcast_messages', { message: 'x', ends_at: '' });
    assert.deepEqual(blank.body, { message: { ends_at: ["can't be blank"] } });
  });

  test('nothing is created when the request is refused', async () => {
    const before = await app.root.get('/broadcast_messages', { per_page: 1 });
    await app.root.post('/broadcast_messages', { message: 'refused', color: 'nope' });
    const after = await app.root.get('/broadcast_messages', { per_page: 1 });
    assert.equal(after.headers.get('x-total'), before.headers.get('x-total'));
  });
});

describe('PUT /broadcast_messages/:id', () => {
  test('changes only the given attributes and answers the updated message', async () => {
    const created = await createMessage({ message: 'old', color: '#111111', font: '#222222' });
    const response = await app.root.put(`/broadcast_messages/${created.id}`, { message: 'new' });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { ...created, message: 'new' });
    const read = await app.root.get(`/broadcast_messages/${created.id}`);
    assert.equal(read.body.message, 'new');
  });

  test('colours and times are updated and echoed', async () => {
    const created = await createMessage();
    const response = await app.root.form('PUT', `/broadcast_messages/${created.id}`, {
      color: '#000000',
      font: '#cecece',
      starts_at: '2016-07-02T10:11:12Z',
      ends_at: '2016-07-02T13:11:12Z',
    });
    assert.equal(response.status, 200);
    assert.equal(response.body.color, '#000000');
    assert.equal(response.body.font, '#cecece');
    assert.equal(response.body.starts_at, '2016-07-02T10:11:12.000Z');
    assert.equal(response.body.ends_at, '2016-07-02T13:11:12.000Z');
    assert.equal(response.body.message, created.message);
  });

  test('an invalid color or font answers 400 and changes nothing', async () => {
    const created = await createMessage();
    const response = await app.root.put(`/broadcast_messages/${created.id}`, { message: 'changed?', color: '#xyz', font: 'x' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: { color: ['must be a valid color code'], font: ['must be a valid color code'] } });
    const read = await app.root.get(`/broadcast_messages/${created.id}`);
    assert.deepEqual(read.body, created);
  });

  test('unparseable times and a blank message answer 400 naming the field', async () => {
    const created = await createMessage();
    const times = await app.root.put(`/broadcast_messages/${created.id}`, { ends_at: 'never' });
    assert.equal(times.status, 400);
    assert.deepEqual(times.body, { message: { ends_at: ['is invalid'] } });
    const blank = await app.root.put(`/broadcast_messages/${created.id}`, { message: '' });
    assert.equal(blank.status, 400);
    assert.deepEqual(blank.body, { message: { message: ["can't be blank"] } });
  });

  test('an unknown id answers 404 Not found', async () => {
    const response = await app.root.put('/broadcast_messages/999999', { message: 'x' });
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 Not found' });
  });
});

describe('DELETE /broadcast_messages/:id', () => {
  test('answers the deleted message, which is gone afterwards', async () => {
    const created = await createMessage({ message: 'bye' });
    const response = await app.root.delete(`/broadcast_messages/${created.id}`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, created);
    const read = await app.root.get(`/broadcast_messages/${created.id}`);
    assert.equal(read.status, 404);
  });

  test('an unknown id answers 404 Not found', async () => {
    const response = await app.root.delete('/broadcast_messages/999999');
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 Not found' });
  });
});

describe('Broadcast message active', () => {
  test('a window in the past is not active', async () => {
    const created = await createMessage({ starts_at: iso(Date.now() - 3 * HOUR), ends_at: iso(Date.now() - 2 * HOUR) });
    assert.equal(created.active, false);
  });

  test('a window in the future is not active', async () => {
    const created = await createMessage({ starts_at: iso(Date.now() + 2 * HOUR), ends_at: iso(Date.now() + 3 * HOUR) });
    assert.equal(created.active, false);
  });

  test('a window around now is active, in every answer', async () => {
    const created = await createMessage({ starts_at: iso(Date.now() - HOUR), ends_at: iso(Date.now() + HOUR) });
    assert.equal(created.active, true);
    const read = await app.root.get(`/broadcast_messages/${created.id}`);
    assert.equal(read.body.active, true);
    const list = await app.root.get('/broadcast_messages', { per_page: 100 });
    assert.equal(list.body.find((item: { id: number }) => item.id === created.id).active, true);
  });

  test('moving the window changes active', async () => {
    const created = await createMessage();
    const ended = await app.root.put(`/broadcast_messages/${created.id}`, {
      ends_at: iso(Date.now() - HOUR),
      starts_at: iso(Date.now() - 2 * HOUR),
    });
    assert.equal(ended.body.active, false);
    const reopened = await app.root.put(`/broadcast_messages/${created.id}`, { ends_at: iso(Date.now() + HOUR) });
    assert.equal(reopened.body.active, true);
  });
});
