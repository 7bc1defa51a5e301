import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { Issue, presentIssue } from './entities/issue';
import { Label, presentLabel } from './entities/label';
import { RecordId } from '../shared/params';

const IssuePath = Type.Object({ id: Type.String(), issue_id: RecordId });
// A label by id or, failing that, by title (8.12's `find_project_label`).
const LabelPath = Type.Object({ id: Type.String(), label_id: Type.String() });
const NoParams = Type.Object({});
// A subscription that changes nothing is 304 with no body.
const NotModified = { 304: Type.Null({ description: 'nothing changed' }) };

/** Subscribing to a project's issues and labels, and unsubscribing (GitLab 8.12's `subscriptions.rb`). */
export function subscriptionsRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { subscriptions } = services;

  api.post(
    '/projects/:id/issues/:issue_id/subscription',
    {
      config: { project: 'read_issue' },
      schema: { params: IssuePath, body: NoParams, response: { 201: Issue, ...NotModified } },
    },
    async (request, reply) => {
      const issue = await subscriptions.subscribeToIssue(request.project, request.standing, request.params.issue_id);
      return reply.status(201).send(presentIssue(issue, presenter));
    },
  );

  api.delete(
    '/projects/:id/issues/:issue_id/subscription',
    {
      config: { project: 'read_issue' },
      schema: { params: IssuePath, querystring: NoParams, response: { 200: Issue, ...NotModified } },
    },
    async (request) =>
      presentIssue(await subscriptions.unsubscribeFromIssue(request.project, request.standing, request.params.issue_id), presenter),
  );

  api.post(
    '/projects/:id/labels/:label_id/subscription',
    {
      config: { project: 'read_label' },
      schema: { params: LabelPath, body: NoParams, response: { 201: Label, ...NotModified } },
    },
    async (request, reply) => {
      const label = await subscriptions.subscribeToLabel(request.project, request.standing, request.params.label_id);
      return reply.status(201).send(presentLabel(label));
    },
  );

  api.delete(
    '/projects/:id/labels/:label_id/subscription',
    {
      config: { project: 'read_label' },
      schema: { params: LabelPath, querystring: NoParams, response: { 200: Label, ...NotModified } },
    },
    async (request) => presentLabel(await subscriptions.unsubscribeFromLabel(request.project, request.standing, request.params.label_id)),
  );
}
