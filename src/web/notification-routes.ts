import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, notFound } from '../errors';
import type { Services } from '../services/index';
import type { User } from '../services/users/users';
import { EVENTS, type EventName } from '../services/notifications/levels';
import { PAGE, pageContext, sendPage } from './request';
import type { FieldErrors } from './form-errors';
import { redirectWithNotice } from './flash';
import { projectPath } from './paths';
import { RESERVED } from './browse-routes';
import { Checkbox, ticked } from './admin-guard';
import { notificationsPage } from './pages/profile/notifications';

const Text = Type.Optional(Type.String({ maxLength: 255 }));
const GlobalBody = Type.Object({
  authenticity_token: Text,
  level: Text,
  notification_email: Type.Optional(Type.String({ maxLength: 1024 })),
  ...(Object.fromEntries(EVENTS.map((event) => [event, Checkbox])) as Record<EventName, typeof Checkbox>),
});
const LevelBody = Type.Object({ authenticity_token: Text, level: Text, back: Text });
type LevelBody = typeof LevelBody.static;

/** GitLab's word on saving any of these forms. */
const SAVED = 'Notification settings saved';

/** The service's refusals (`level does not have a valid value …`) beside the field they name. */
function settingErrors(error: unknown): FieldErrors | undefined {
  if (!(error instanceof ApiError) || error.status !== 400) return undefined;
  const message = String((error.body as { message?: unknown } | undefined)?.message ?? '').replace(/^400 \(Bad request\) /, '');
  for (const field of ['notification_email', 'level'])
    if (message.startsWith(`${field} `)) return { [field]: [message.slice(field.length + 1)] };
  return { base: [message || 'The form could not be saved.'] };
}

/**
 * A user's notification levels on the web (GitLab 8.12's `/profile/notifications` and the level
 * control of a project's and a group's page), through `NotificationSettingsService` as
 * `PUT /notification_settings` and its project and group routes. Anonymous visitors are sent to
 * sign in; their forms are a 404, as is a project or group they may not read.
 */
export function notificationRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  const settings = services.notificationSettings;
  const me = (request: FastifyRequest): User => {
    if (!request.web.user) throw notFound();
    return request.web.user;
  };

  const show = async (request: FastifyRequest, reply: FastifyReply, errors?: FieldErrors) => {
    const user = me(request);
    const [global, emails, chosen] = await Promise.all([settings.global(user), services.emails.listOwn(user.id), settings.chosen(user)]);
    const addresses = [user.email, ...emails.map((email) => email.email)];
    const page = notificationsPage({ csrfToken: pageContext(request).csrfToken, global, addresses, chosen, errors });
    return sendPage(request, reply, 'Notifications', page, errors ? 400 : 200);
  };

  pages.get('/profile/notifications', { config: PAGE }, async (request, reply) => {
    if (!request.web.user) return reply.redirect(`/users/sign_in?redirect_to=${encodeURIComponent(request.url)}`, 303);
    return show(request, reply);
  });

  pages.post<{ Body: typeof GlobalBody.static }>(
    '/profile/notifications',
    { config: PAGE, schema: { body: GlobalBody } },
    async (request, reply) => {
      const user = me(request);
      const { body } = request;
      const events = Object.fromEntries(EVENTS.map((event) => [event, ticked(body[event])])) as Record<EventName, boolean>;
      try {
        await settings.updateGlobal(user, { level: body.level, notification_email: body.notification_email, events });
      } catch (error) {
        const errors = settingErrors(error);
        if (!errors) throw error;
        return show(request, reply, errors);
      }
      return redirectWithNotice(request, reply, '/profile/notifications', SAVED);
    },
  );

  /** After a level is set: back to the profile's list when it came from there, else to the page it was set on. */
  const after = (request: FastifyRequest<{ Body: LevelBody }>, reply: FastifyReply, page: string) =>
    redirectWithNotice(request, reply, request.body.back === 'profile' ? '/profile/notifications' : page, SAVED);
  /** A refused level is the service's 400, as a page. */
  const level = (body: LevelBody) => ({ level: body.level ?? '' });

  pages.post<{ Params: { namespace: string; project: string }; Body: LevelBody }>(
    '/:namespace/:project/notification_setting',
    { config: PAGE, schema: { body: LevelBody } },
    async (request, reply) => {
      const user = me(request);
      const { namespace, project: name } = request.params;
      if (RESERVED.has(namespace.toLowerCase())) throw notFound();
      const { project } = await services.projects.findReadable(`${namespace}/${name}`, user);
      await settings.update(user.id, 'Project', project.id, level(request.body));
      return after(request, reply, projectPath(project));
    },
  );

  pages.post<{ Params: { path: string }; Body: LevelBody }>(
    '/groups/:path/notification_setting',
    { config: PAGE, schema: { body: LevelBody } },
    async (request, reply) => {
      const user = me(request);
      const { group } = await services.groups.findReadable(request.params.path, user);
      await settings.update(user.id, 'Namespace', group.id, level(request.body));
      return after(request, reply, `/groups/${encodeURIComponent(group.path)}`);
    },
  );
}
