import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { createIssue, createProject } from '../support/create';
import { eventually } from '../support/eventually';
import { MailServer } from '../support/mail-server';
import { seedCommit } from '../support/repo';
import type { ApiClient } from '../support/client';

/*
 * E-mail notifications end to end: changes made through the API reach a real SMTP server on
 * loopback, to the recipients GitLab 8.12's notification levels choose.
 */

let mail: MailServer;
let app: TestApp;
let project: any;
type Person = { user: any; client: ApiClient };
let author: Person; // a developer who acts
let watcher: Person; // a developer whose global level is `watch`
let muted: Person; // a developer whose global level is `disabled`
let mentionOnly: Person; // a developer whose global level is `mention`
let outsider: Person; // not a member; watches the (public) project

before(async () => {
  mail = await MailServer.start();
  app = await startApp({ SMTP_URL: mail.url, EXTERNAL_URL: 'http://forge.test:8080' });
  project = await createProject(app.root, { name: 'mailed', visibility_level: 20 });
  [author, watcher, muted, mentionOnly, outsider] = await Promise.all([1, 2, 3, 4, 5].map(() => app.createUser()));
  for (const person of [author, watcher, muted, mentionOnly]) {
    const added = await app.root.post(`/projects/${project.id}/members`, { user_id: person.user.id, access_level: 30 });
    assert.equal(added.status, 201, JSON.stringify(added.body));
  }
  await level(watcher, '/notification_settings', 'watch');
  await level(muted, '/notification_settings', 'disabled');
  await level(mentionOnly, '/notification_settings', 'mention');
  await level(outsider, `/projects/${project.id}/notification_settings`, 'watch');
});
after(async () => {
  await app.close();
  await mail.stop();
});

async function level(person: Person, path: string, value: string): Promise<void> {
  const response = await person.client.put(path, { level: value });
  assert.equal(response.status, 200, JSON.stringify(response.body));
}

/** Waits until every queued notification and mail has been handled: then what has not arrived never will. */
async function settled(): Promise<void> {
  await eventually(
    async () => {
      const left = await app.ctx.db
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('kind', 'in', ['notifications.notify', 'email.deliver'])
        .executeTakeFirstOrThrow();
      return Number(left.n) === 0;
    },
    { message: 'the mail queue to empty' },
  );
}

const mailsAbout = (person: Person, words: string) => mail.to(person.user.email).filter((sent) => sent.subject.includes(words));

describe('a new issue', () => {
  test('mails a watcher, with a plain-text part and the link to the issue', async () => {
    const issue = await createIssue(author.client, project, { title: 'Watchers hear of this', description: 'The body of it.' });
    const [sent] = await eventually(
      () => mailsAbout(watcher, 'Watchers hear of this').length > 0 && mailsAbout(watcher, 'Watchers hear of this'),
    );
    assert.match(sent.subject, new RegExp(`mailed \\| Watchers hear of this \\(#${issue.iid}\\)`));
    assert.match(sent.raw, /Content-Type: text\/plain/);
    assert.ok(sent.text.includes(`http://forge.test:8080/root/mailed/issues/${issue.iid}`), sent.text);
    assert.ok(sent.text.includes('The body of it.'));
    assert.equal(sent.from, 'forge@forge.test');
  });

  test('mails neither the author who made it nor a member whose level is disabled, even as its assignee', async () => {
    await createIssue(app.root, project, { title: 'Assigned to the muted', assignee_id: muted.user.id });
    await eventually(() => mailsAbout(watcher, 'Assigned to the muted').length > 0);
    await settled();
    assert.equal(mailsAbout(muted, 'Assigned to the muted').length, 0);
    assert.equal(mail.to('admin@example.com').filter((sent) => sent.subject.includes('Assigned to the muted')).length, 0);
  });

  test('mails a user it mentions, even at the mention level', async () => {
    await createIssue(author.client, project, { title: 'Calling out', description: `Have a look, @${mentionOnly.user.username}` });
    await eventually(() => mailsAbout(mentionOnly, 'Calling out').length > 0, { message: 'the mention mail' });
    await settled();
    assert.equal(mailsAbout(author, 'Calling out').length, 0, 'the actor gets nothing');
  });

  test('a confidential one mails a member watcher but not a watcher who may not read it', async () => {
    await createIssue(author.client, project, { title: 'Secret matters', confidential: true });
    await eventually(() => mailsAbout(watcher, 'Secret matters').length > 0);
    await settled();
    assert.equal(mailsAbout(outsider, 'Secret matters').length, 0);
  });

  test('a public one mails that same outside watcher', async () => {
    await createIssue(author.client, project, { title: 'Open matters' });
    await eventually(() => mailsAbout(outsider, 'Open matters').length > 0, { message: "the outside watcher's mail" });
  });
});

describe('a new issue with a label', () => {
  test('mails who subscribed to the label, and not for issues without it', async () => {
    const fan = await app.createUser();
    const label = await app.root.post(`/projects/${project.id}/labels`, { name: 'bug', color: '#ff0000' });
    assert.equal(label.status, 201, JSON.stringify(label.body));
    const subscribed = await fan.client.post(`/projects/${project.id}/labels/bug/subscription`, {});
    assert.equal(subscribed.status, 201, JSON.stringify(subscribed.body));
    await createIssue(author.client, project, { title: 'Unlabelled one' });
    await createIssue(author.client, project, { title: 'A labelled bug', labels: 'bug' });
    await eventually(() => mail.to(fan.user.email).some((m) => m.subject.includes('A labelled bug')), { message: 'the label mail' });
    await settled();
    assert.ok(!mail.to(fan.user.email).some((m) => m.subject.includes('Unlabelled one')));
  });
});

describe('a new note', () => {
  test('mails the participants of the issue, with a link to the note, but not its own author', async () => {
    const issue = await createIssue(author.client, project, { title: 'Discussed here' });
    await settled();
    const note = await watcher.client.post(`/projects/${project.id}/issues/${issue.id}/notes`, { body: 'A reply to the author' });
    assert.equal(note.status, 201);
    const [sent] = await eventually(() => {
      const found = mailsAbout(author, 'Discussed here').filter((m) => m.text.includes('A reply to the author'));
      return found.length > 0 && found;
    });
    assert.ok(sent.text.includes(`/root/mailed/issues/${issue.iid}#note_${note.body.id}`), sent.text);
    await settled();
    assert.equal(
      mailsAbout(watcher, 'Discussed here').filter((m) => m.text.includes('A reply to the author')).length,
      0,
      'the commenter gets nothing',
    );
  });

  test('mails a user it mentions at the mention level, who is not mailed for other notes', async () => {
    const issue = await createIssue(author.client, project, { title: 'Mentioned in a note' });
    await author.client.post(`/projects/${project.id}/issues/${issue.id}/notes`, { body: 'first, without a mention' });
    await author.client.post(`/projects/${project.id}/issues/${issue.id}/notes`, { body: `now you, @${mentionOnly.user.username}` });
    await eventually(() => mailsAbout(mentionOnly, 'Mentioned in a note').some((m) => m.text.includes('now you')));
    await settled();
    assert.equal(mailsAbout(mentionOnly, 'Mentioned in a note').length, 1);
  });
});

describe('changes of an issue', () => {
  test('closing, reopening and reassigning mail the watcher', async () => {
    const issue = await createIssue(author.client, project, { title: 'Changing states' });
    await author.client.put(`/projects/${project.id}/issues/${issue.id}`, { state_event: 'close' });
    await author.client.put(`/projects/${project.id}/issues/${issue.id}`, { state_event: 'reopen' });
    await author.client.put(`/projects/${project.id}/issues/${issue.id}`, { assignee_id: watcher.user.id });
    await eventually(() => {
      const texts = mailsAbout(watcher, 'Changing states').map((m) => m.text);
      return ['was closed by', 'was reopened by', 'reassigned'].every((words) => texts.some((text) => text.includes(words)));
    });
  });
});

describe('an edited issue', () => {
  test('mails only those its new text newly mentions', async () => {
    const issue = await createIssue(author.client, project, { title: 'Edited later', description: `cc @${watcher.user.username}` });
    await settled();
    const before = mailsAbout(watcher, 'Edited later').length;
    const edited = await author.client.put(`/projects/${project.id}/issues/${issue.id}`, {
      description: `cc @${watcher.user.username} and @${mentionOnly.user.username}`,
    });
    assert.equal(edited.status, 200);
    await eventually(() => mailsAbout(mentionOnly, 'Edited later').some((m) => m.text.includes('mentioned you')));
    await settled();
    assert.equal(mailsAbout(watcher, 'Edited later').length, before, 'already mentioned: no new mail');
  });
});

describe('merge requests', () => {
  test('a new one and its merge mail the watcher, with the link to the merge request', async () => {
    await seedCommit(app, project.id, { files: { 'README.md': 'hello\n' } });
    await seedCommit(app, project.id, { branch: 'feature', startRef: 'refs/heads/master', files: { 'feature.txt': 'new\n' } });
    const created = await author.client.post(`/projects/${project.id}/merge_requests`, {
      source_branch: 'feature',
      target_branch: 'master',
      title: 'Bring the feature',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const [opened] = await eventually(
      () => mailsAbout(watcher, 'Bring the feature').length > 0 && mailsAbout(watcher, 'Bring the feature'),
    );
    assert.match(opened.subject, new RegExp(`\\(!${created.body.iid}\\)`));
    assert.ok(opened.text.includes(`/root/mailed/merge_requests/${created.body.iid}`), opened.text);
    await eventually(
      async () => (await app.root.put(`/projects/${project.id}/merge_requests/${created.body.id}/merge`, {})).status === 200,
      {
        message: 'the merge',
      },
    );
    await eventually(() => mailsAbout(watcher, 'Bring the feature').some((m) => m.text.includes('was merged by')), {
      message: 'the merge mail',
    });
    await eventually(() => mailsAbout(author, 'Bring the feature').some((m) => m.text.includes('was merged by')), {
      message: "the author's merge mail (a participant)",
    });
  });
});

describe('a failed pipeline', () => {
  test('mails the user whose pipeline it is', async () => {
    const sha = await seedCommit(app, project.id, { files: { 'ci.txt': 'red\n' } });
    const posted = await author.client.post(`/projects/${project.id}/statuses/${sha}`, { state: 'failed', name: 'external' });
    assert.equal(posted.status, 201, JSON.stringify(posted.body));
    const [sent] = await eventually(() => {
      const found = mail.to(author.user.email).filter((m) => m.subject.includes('has failed'));
      return found.length > 0 && found;
    });
    assert.ok(sent.text.includes(sha), sent.text);
    assert.match(sent.text, /\/root\/mailed\/pipelines\/\d+/);
  });
});

describe('a new SSH key', () => {
  test('mails its owner, whatever their level', async () => {
    const key = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGJ0cVVq5B1sK3kJ7lQ4Hh3b6kq0xvWm1Q2bP0c1yY7a muted@example';
    const added = await muted.client.post('/user/keys', { title: 'laptop', key });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    await eventually(() => mailsAbout(muted, 'SSH key was added').length > 0, { message: 'the key mail' });
  });
});

describe('while the SMTP server is down', () => {
  test('mail waits in the queue, is retried, and arrives once the server is back on its port', async () => {
    await mail.stop();
    await createIssue(author.client, project, { title: 'Sent while down' });
    const failing = await eventually(() =>
      app.ctx.db.selectFrom('jobs').selectAll().where('kind', '=', 'email.deliver').where('last_error', 'is not', null).executeTakeFirst(),
    );
    assert.ok(failing.attempts >= 1);
    assert.equal(mailsAbout(watcher, 'Sent while down').length, 0);
    await mail.listen();
    await eventually(() => mailsAbout(watcher, 'Sent while down').length > 0, { message: 'the retried mail' });
  });
});
