import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { createIssue, createProject } from '../support/create';
import { eventually } from '../support/eventually';
import { MailServer } from '../support/mail-server';
import { seedCommit } from '../support/repo';
import type { ApiClient } from '../support/client';

/*
 * The mails of GitLab 8.12's NotificationService beyond new, closed, reopened, reassigned and
 * merged: labels added (to their subscribers), an issue moved, an automatic merge set, and those
 * mentioned in comments counting as participants. Through the API, to a real SMTP server on loopback.
 */

let mail: MailServer;
let app: TestApp;
let project: any;
type Person = { user: any; client: ApiClient };
let author: Person; // a developer who writes issues and comments
let member: Person; // a developer at the default level (participating), in nothing unless named
let fan: Person; // not a member; subscribed to the label `regression` of the (public) project

before(async () => {
  mail = await MailServer.start();
  app = await startApp({ SMTP_URL: mail.url, EXTERNAL_URL: 'http://forge.test:8080' });
  project = await createProject(app.root, { name: 'changes', visibility_level: 20 });
  [author, member, fan] = await Promise.all([1, 2, 3].map(() => app.createUser()));
  for (const person of [author, member]) {
    const added = await app.root.post(`/projects/${project.id}/members`, { user_id: person.user.id, access_level: 30 });
    assert.equal(added.status, 201, JSON.stringify(added.body));
  }
  for (const name of ['regression', 'cosmetic']) {
    const label = await app.root.post(`/projects/${project.id}/labels`, { name, color: '#ff0000' });
    assert.equal(label.status, 201, JSON.stringify(label.body));
  }
  const subscribed = await fan.client.post(`/projects/${project.id}/labels/regression/subscription`, {});
  assert.equal(subscribed.status, 201, JSON.stringify(subscribed.body));
});
after(async () => {
  await app.close();
  await mail.stop();
});

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

describe('labels added to an issue', () => {
  test("mail the label's subscribers, once per label added, and not for a label they do not follow", async () => {
    const issue = await createIssue(author.client, project, { title: 'Relabelled later' });
    await settled();
    assert.equal(mailsAbout(fan, 'Relabelled later').length, 0, 'no label yet');
    const labelled = await app.root.put(`/projects/${project.id}/issues/${issue.id}`, { labels: 'regression' });
    assert.equal(labelled.status, 200, JSON.stringify(labelled.body));
    const [sent] = await eventually(() => mailsAbout(fan, 'Relabelled later').length > 0 && mailsAbout(fan, 'Relabelled later'), {
      message: 'the relabel mail',
    });
    assert.match(sent.subject, new RegExp(`changes \\| Relabelled later \\(#${issue.iid}\\)`));
    assert.ok(sent.text.includes(`added the label regression to issue #${issue.iid}`), sent.text);
    assert.ok(sent.text.includes(`/root/changes/issues/${issue.iid}`), sent.text);
    assert.ok(sent.text.includes('subscribed to the label regression'), sent.text);
    // Kept, and another added: `regression` was not added again.
    await app.root.put(`/projects/${project.id}/issues/${issue.id}`, { labels: 'regression,cosmetic' });
    await settled();
    assert.equal(mailsAbout(fan, 'Relabelled later').length, 1);
    assert.equal(mailsAbout(author, 'Relabelled later').length, 0, 'the author follows no label');
  });

  test('do not mail a subscriber who unsubscribed from the issue itself', async () => {
    const issue = await createIssue(author.client, project, { title: 'Not for the fan' });
    await settled(); // the new issue's mail is worked out before the fan subscribes to it
    // Subscribed, then unsubscribed: the issue remembers the refusal.
    const subscribed = await fan.client.post(`/projects/${project.id}/issues/${issue.id}/subscription`, {});
    assert.equal(subscribed.status, 201, JSON.stringify(subscribed.body));
    const unsubscribed = await fan.client.delete(`/projects/${project.id}/issues/${issue.id}/subscription`);
    assert.equal(unsubscribed.status, 200, JSON.stringify(unsubscribed.body));
    await app.root.put(`/projects/${project.id}/issues/${issue.id}`, { labels: 'regression' });
    await settled();
    assert.equal(mailsAbout(fan, 'Not for the fan').length, 0);
  });
});

describe('comments that mention someone', () => {
  test('make them a participant: at the participating level they hear of the close', async () => {
    const bystander = await app.createUser();
    await app.root.post(`/projects/${project.id}/members`, { user_id: bystander.user.id, access_level: 30 });
    const issue = await createIssue(author.client, project, { title: 'Asked in a comment' });
    const note = await author.client.post(`/projects/${project.id}/issues/${issue.id}/notes`, {
      body: `what do you think, @${member.user.username}?`,
    });
    assert.equal(note.status, 201, JSON.stringify(note.body));
    await settled();
    const closed = await app.root.put(`/projects/${project.id}/issues/${issue.id}`, { state_event: 'close' });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    await eventually(() => mailsAbout(member, 'Asked in a comment').some((m) => m.text.includes('was closed by')), {
      message: "the mentioned member's close mail",
    });
    // Each recipient's mail is a delivery job of its own: the author's may come after the member's.
    await settled();
    assert.ok(
      mailsAbout(author, 'Asked in a comment').some((m) => m.text.includes('was closed by')),
      'the author too',
    );
    assert.equal(mailsAbout(bystander, 'Asked in a comment').length, 0, 'a member nobody named hears nothing');
  });
});

describe('a moved issue', () => {
  test('mails its participants who may read the new issue, with its new place', async () => {
    const elsewhere = await createProject(app.root, { name: 'elsewhere', visibility_level: 0 });
    const added = await app.root.post(`/projects/${elsewhere.id}/members`, { user_id: member.user.id, access_level: 20 });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const issue = await createIssue(author.client, project, { title: 'Moving away', description: `cc @${member.user.username}` });
    await settled();
    const moved = await app.root.post(`/projects/${project.id}/issues/${issue.id}/move`, { to_project_id: elsewhere.id });
    assert.equal(moved.status, 201, JSON.stringify(moved.body));
    const [sent] = await eventually(
      () => {
        const found = mailsAbout(member, 'Moving away').filter((m) => m.text.includes('was moved to another project'));
        return found.length > 0 && found;
      },
      { message: 'the move mail' },
    );
    assert.match(sent.subject, new RegExp(`changes \\| Moving away \\(#${issue.iid}\\)`), 'on the thread of the original');
    assert.ok(sent.text.includes(`New issue location: http://forge.test:8080/root/elsewhere/issues/${moved.body.iid}`), sent.text);
    await settled();
    assert.equal(
      mailsAbout(author, 'Moving away').filter((m) => m.text.includes('moved')).length,
      0,
      'the author may not read the private project it went to',
    );
  });
});

describe('merge requests', () => {
  test('labels added mail the subscribers; an automatic merge set mails the participants', async () => {
    await seedCommit(app, project.id, { files: { 'README.md': 'hello\n' } });
    const head = await seedCommit(app, project.id, { branch: 'later', startRef: 'refs/heads/master', files: { 'later.txt': 'new\n' } });
    const created = await author.client.post(`/projects/${project.id}/merge_requests`, {
      source_branch: 'later',
      target_branch: 'master',
      title: 'Merge me when green',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const at = `/projects/${project.id}/merge_requests/${created.body.id}`;
    const labelled = await app.root.put(at, { labels: 'regression' });
    assert.equal(labelled.status, 200, JSON.stringify(labelled.body));
    const [relabelled] = await eventually(
      () => mailsAbout(fan, 'Merge me when green').length > 0 && mailsAbout(fan, 'Merge me when green'),
      { message: 'the relabel mail of the merge request' },
    );
    assert.ok(relabelled.text.includes(`added the label regression to merge request !${created.body.iid}`), relabelled.text);

    const running = await app.root.post(`/projects/${project.id}/statuses/${head}`, { state: 'running', ref: 'later', name: 'external' });
    assert.equal(running.status, 201, JSON.stringify(running.body));
    const automatic = await app.root.put(`${at}/merge`, { merge_when_build_succeeds: true });
    assert.equal(automatic.status, 200, JSON.stringify(automatic.body));
    assert.equal(automatic.body.merge_when_build_succeeds, true);
    const [set] = await eventually(
      () => {
        const found = mailsAbout(author, 'Merge me when green').filter((m) => m.text.includes('to be merged automatically'));
        return found.length > 0 && found;
      },
      { message: "the author's automatic merge mail" },
    );
    assert.ok(set.text.includes(`set merge request !${created.body.iid} to be merged automatically when the build succeeds`), set.text);
    // Asked again while on: no second mail.
    await app.root.put(`${at}/merge`, { merge_when_build_succeeds: true });
    await settled();
    assert.equal(mailsAbout(author, 'Merge me when green').filter((m) => m.text.includes('to be merged automatically')).length, 1);
  });
});
