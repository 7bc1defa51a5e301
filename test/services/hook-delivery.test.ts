import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { HookListener, type Answer } from '../support/hook-listener';

// A self-signed certificate for 127.0.0.1 (valid 2000–2100), made for these tests only.
const tls = {
  key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQglfCNeCkiFlm82SRx
aAKuCRj70MdGIdo6mP6on5smODmhRANCAATC2e51KEpiKrggKNBkWiWDKnpFCZNG
6EUDHij/WU49T4d8fJH07yU2vs2F0f5UpcPhe57sGu2QtMOHYuRNlutf
-----END PRIVATE KEY-----
`,
  cert: `-----BEGIN CERTIFICATE-----
MIIBVzCB/6ADAgECAgEBMAoGCCqGSM49BAMCMBQxEjAQBgNVBAMMCTEyNy4wLjAu
MTAgFw0wMDAxMDEwMDAwMDBaGA8yMTAwMDEwMTAwMDAwMFowFDESMBAGA1UEAwwJ
MTI3LjAuMC4xMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEwtnudShKYiq4ICjQ
ZFolgyp6RQmTRuhFAx4o/1lOPU+HfHyR9O8lNr7NhdH+VKXD4Xue7BrtkLTDh2Lk
TZbrX6NAMD4wDwYDVR0RBAgwBocEfwAAATAMBgNVHRMBAf8EAjAAMB0GA1UdDgQW
BBTV3KMrigsz3pT7RmWEhkyUe2kphTAKBggqhkjOPQQDAgNHADBEAiAIjcXGbR2C
sj/kJ/uYccActqeDrtYRjNQKAzdapVQ6ugIgF4MSR94Huh91kXDY5VvjZgBuAmKE
nZZl+lBWptxMXu8=
-----END CERTIFICATE-----
`,
};

let app: TestApp;
before(async () => {
  app = await startApp();
});
after(() => app.close());

/** A listener with a system hook pointing at it; both go away after `use`. */
async function withHook(
  options: { answer?: Answer; tls?: typeof tls; url?: (listener: HookListener) => string },
  use: (listener: HookListener, hookId: number) => Promise<void>,
): Promise<void> {
  const listener = await HookListener.start({ answer: options.answer, tls: options.tls });
  const created = await app.root.post('/hooks', { url: options.url ? options.url(listener) : listener.url });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const hookId: number = created.body[0].id;
  try {
    await use(listener, hookId);
  } finally {
    await app.root.delete(`/hooks/${hookId}`);
    await listener.close();
  }
}

let users = 0;
function createUser() {
  const n = ++users;
  return app.root.post('/users', { email: `hooked${n}@example.com`, password: 'password123', name: `Hooked ${n}`, username: `hooked${n}` });
}

/** The delivery jobs still queued for a hook. */
async function jobsFor(hookId: number) {
  const rows = await app.ctx.db.selectFrom('jobs').selectAll().where('kind', '=', 'hook.deliver').execute();
  return rows.filter((row) => JSON.parse(row.payload).hookId === hookId);
}

const isUserCreate = (username: string) => (request: { body: any }) =>
  request.body?.event_name === 'user_create' && request.body.username === username;

describe('system hook delivery', () => {
  test('a system hook receives user_create after POST /users, with the System Hook headers and payload', async () => {
    await withHook({}, async (listener) => {
      const created = await createUser();
      assert.equal(created.status, 201);
      const user = created.body;
      const received = await listener.waitFor(isUserCreate(user.username));
      assert.equal(received.method, 'POST');
      assert.equal(received.url, '/hook');
      assert.equal(received.headers['content-type'], 'application/json');
      assert.equal(received.headers['x-gitlab-event'], 'System Hook');
      assert.equal(received.headers['x-gitlab-token'], undefined);
      const time = user.created_at.replace(/\.\d{3}Z$/, 'Z');
      assert.deepEqual(Object.keys(received.body), ['event_name', 'created_at', 'updated_at', 'name', 'email', 'user_id', 'username']);
      assert.deepEqual(received.body, {
        event_name: 'user_create',
        created_at: time,
        updated_at: time,
        name: user.name,
        email: user.email,
        user_id: user.id,
        username: user.username,
      });
    });
  });

  test('user_destroy goes out when a user is deleted', async () => {
    await withHook({}, async (listener) => {
      const user = (await createUser()).body;
      assert.equal((await app.root.delete(`/users/${user.id}`)).status, 200);
      const received = await listener.waitFor((request) => request.body.event_name === 'user_destroy' && request.body.user_id === user.id);
      assert.equal(received.body.username, user.username);
      assert.equal(received.body.email, user.email);
    });
  });

  test('every system hook receives the event', async () => {
    const listeners = await Promise.all([HookListener.start(), HookListener.start(), HookListener.start()]);
    const hooks = await Promise.all(listeners.map((listener) => app.root.post('/hooks', { url: listener.url })));
    try {
      const user = (await createUser()).body;
      const received = await Promise.all(listeners.map((listener) => listener.waitFor(isUserCreate(user.username))));
      for (const request of received) assert.equal(request.body.user_id, user.id);
    } finally {
      await Promise.all(hooks.map((hook) => app.root.delete(`/hooks/${hook.body[0].id}`)));
      await Promise.all(listeners.map((listener) => listener.close()));
    }
  });

  test('a delivery answered 500 is tried again with the same payload and headers', async () => {
    await withHook({ answer: (n) => (n === 0 ? 500 : 200) }, async (listener) => {
      const user = (await createUser()).body;
      const [first, second] = await listener.waitForCount(2);
      assert.ok(isUserCreate(user.username)(first));
      assert.deepEqual(second.body, first.body);
      assert.equal(second.headers['x-gitlab-event'], 'System Hook');
      assert.equal(second.headers['content-type'], 'application/json');
    });
  });

  test('a delivery to a closed listener is tried again once it listens', async () => {
    const closed = await HookListener.start();
    const port = closed.port;
    await closed.close();
    const created = await app.root.post('/hooks', { url: `http://127.0.0.1:${port}/hook` });
    const hookId: number = created.body[0].id;
    let listener: HookListener | undefined;
    try {
      const user = (await createUser()).body;
      await eventually(async () => (await jobsFor(hookId)).find((job) => job.last_error !== null));
      listener = await HookListener.start({ port });
      const received = await listener.waitFor(isUserCreate(user.username));
      assert.equal(received.body.user_id, user.id);
    } finally {
      await app.root.delete(`/hooks/${hookId}`);
      await listener?.close();
    }
  });

  test('deleting the hook stops deliveries, retries included', async () => {
    let answerFirst!: (status: number) => void;
    const firstAnswer = new Promise<number>((resolve) => (answerFirst = resolve));
    const other = await HookListener.start();
    const otherHook = (await app.root.post('/hooks', { url: other.url })).body[0];
    try {
      await withHook({ answer: (n) => (n === 0 ? firstAnswer : 200) }, async (listener, hookId) => {
        const before = (await createUser()).body;
        await listener.waitForCount(1);
        // Deleted while its first delivery is under way; that delivery then fails.
        assert.equal((await app.root.delete(`/hooks/${hookId}`)).status, 200);
        answerFirst(500);
        await eventually(async () => (await jobsFor(hookId)).length === 0);
        const after = (await createUser()).body;
        await other.waitFor(isUserCreate(after.username));
        await eventually(async () => (await jobsFor(hookId)).length === 0);
        assert.equal(listener.received.length, 1);
        assert.ok(isUserCreate(before.username)(listener.received[0]));
      });
    } finally {
      await app.root.delete(`/hooks/${otherHook.id}`);
      await other.close();
    }
  });

  test('the request that caused an event answers even when the listener never answers', async () => {
    await withHook({ answer: () => 'never' }, async (listener) => {
      const created = await createUser();
      assert.equal(created.status, 201);
      await listener.waitFor(isUserCreate(created.body.username));
      assert.equal((await app.root.get('/user')).status, 200);
    });
  });

  test('events queued together are each delivered exactly once', async () => {
    await withHook({}, async (listener, hookId) => {
      const deliveries = Array.from({ length: 20 }, (_, seq) => ({ hookId, event: 'System Hook', payload: { event_name: 'batch', seq } }));
      await app.ctx.jobs.enqueueMany('hook.deliver', deliveries);
      await listener.waitForCount(20);
      await eventually(async () => (await jobsFor(hookId)).length === 0);
      const seqs = listener.received.map((request) => request.body.seq).sort((a, b) => a - b);
      assert.deepEqual(
        seqs,
        Array.from({ length: 20 }, (_, seq) => seq),
      );
    });
  });
});

describe('hook delivery options', () => {
  test('X-Gitlab-Token is sent when the hook has a token', async () => {
    await withHook({}, async (listener, hookId) => {
      await app.ctx.db.updateTable('hooks').set({ token: 's3cret' }).where('id', '=', hookId).execute();
      assert.equal((await app.root.get(`/hooks/${hookId}`)).status, 200);
      const received = await listener.waitFor((request) => request.body.event_name === 'project_create');
      assert.equal(received.headers['x-gitlab-token'], 's3cret');
    });
  });

  test('credentials in the hook URL are sent as HTTP Basic authentication', async () => {
    await withHook({ url: (listener) => listener.url.replace('http://', 'http://hook%40user:p%3Ass@') }, async (listener, hookId) => {
      await app.root.get(`/hooks/${hookId}`);
      const received = await listener.waitFor((request) => request.body.event_name === 'project_create');
      assert.equal(received.headers.authorization, `Basic ${Buffer.from('hook@user:p:ss').toString('base64')}`);
      assert.equal(received.url, '/hook');
    });
  });

  test('a hook with enable_ssl_verification false accepts a self-signed certificate', async () => {
    await withHook({ tls }, async (listener, hookId) => {
      await app.ctx.db.updateTable('hooks').set({ enable_ssl_verification: 0 }).where('id', '=', hookId).execute();
      await app.root.get(`/hooks/${hookId}`);
      const received = await listener.waitFor((request) => request.body.event_name === 'project_create');
      assert.equal(received.headers['x-gitlab-event'], 'System Hook');
    });
  });

  test('a hook with enable_ssl_verification true refuses a self-signed certificate', async () => {
    await withHook({ tls }, async (listener, hookId) => {
      await app.root.get(`/hooks/${hookId}`);
      const failed = await eventually(async () => (await jobsFor(hookId)).find((job) => job.last_error !== null));
      assert.match(failed.last_error!, /self[- ]signed/i);
      assert.equal(listener.received.length, 0);
    });
  });
});
