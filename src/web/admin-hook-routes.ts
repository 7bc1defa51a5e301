import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../errors';
import type { Services } from '../services/index';
import { HOOK_FLAG_DEFAULTS } from '../services/hooks/flags';
import { PAGE, pageContext, sendPage } from './request';
import { fieldErrors } from './form-errors';
import { recordId } from './pipeline-routes';
import { administrator, Checkbox, ticked, TokenBody } from './admin-guard';
import { editSystemHookPage, SYSTEM_HOOK_FLAGS, systemHooksPage, type HookForm, type SystemHookFlag } from './pages/admin/hooks';
import type { Hook } from '../services/hooks/system-hooks';
import { redirectWithNotice } from './flash';

const HookBody = Type.Object({
  authenticity_token: Type.Optional(Type.String({ maxLength: 255 })),
  _method: Type.Optional(Type.String({ maxLength: 10 })),
  url: Type.Optional(Type.String({ maxLength: 4096 })),
  token: Type.Optional(Type.String({ maxLength: 1024 })),
  push_events: Checkbox,
  tag_push_events: Checkbox,
  merge_requests_events: Checkbox,
  enable_ssl_verification: Checkbox,
});

/** What the hook form sent: the URL, the token, and each event box ticked or not. */
function typedValues(body: typeof HookBody.static): HookForm['values'] {
  const flags = Object.fromEntries(SYSTEM_HOOK_FLAGS.map(([flag]) => [flag, ticked(body[flag])])) as Record<SystemHookFlag, boolean>;
  return { url: body.url ?? '', token: body.token ?? '', flags };
}

const hookValues = (hook: Hook): HookForm['values'] => ({
  url: hook.url,
  token: hook.token ?? '',
  flags: Object.fromEntries(SYSTEM_HOOK_FLAGS.map(([flag]) => [flag, hook[flag] === 1])) as Record<SystemHookFlag, boolean>,
});

const defaultFlags = () =>
  Object.fromEntries(SYSTEM_HOOK_FLAGS.map(([flag]) => [flag, HOOK_FLAG_DEFAULTS[flag]])) as Record<SystemHookFlag, boolean>;

/**
 * System hooks (GitLab 8.12's `/admin/hooks`): the list, a new hook, its edit form, removal, and a
 * test delivery of GitLab's sample event, through the service `POST`, `DELETE` and `GET /hooks/:id`
 * use (editing is the page's alone: the API has no `PUT /hooks/:id`).
 */
export function adminHookRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  const hooks = services.systemHooks;
  const show = async (request: FastifyRequest, reply: FastifyReply, form: Omit<HookForm, 'csrfToken'>, status = 200) => {
    const body = systemHooksPage(await hooks.list(), { csrfToken: pageContext(request).csrfToken, ...form });
    return sendPage(request, reply, 'System hooks · Admin area', body, status);
  };
  const empty = () => ({ url: '', token: '', flags: defaultFlags() });

  pages.get('/admin/hooks', { config: PAGE }, async (request, reply) => {
    administrator(request);
    return show(request, reply, { values: empty() });
  });

  pages.post<{ Body: typeof HookBody.static }>('/admin/hooks', { config: PAGE, schema: { body: HookBody } }, async (request, reply) => {
    administrator(request);
    const values = typedValues(request.body);
    try {
      await hooks.create(values.url, { token: values.token.trim() || undefined, flags: values.flags });
    } catch (error) {
      const errors = fieldErrors(error);
      if (!errors) throw error;
      return show(request, reply, { values, errors }, 400);
    }
    return redirectWithNotice(request, reply, '/admin/hooks', 'Hook was successfully created.');
  });

  pages.post<{ Params: { id: string } }>('/admin/hooks/:id/test', { config: PAGE, schema: { body: TokenBody } }, async (request, reply) => {
    administrator(request);
    const id = recordId(request.params.id);
    await hooks.test(id);
    return show(request, reply, { values: empty(), notice: `Hook ${id} was sent a test event; its delivery is queued.` });
  });

  pages.post<{ Params: { id: string } }>(
    '/admin/hooks/:id/delete',
    { config: PAGE, schema: { body: TokenBody } },
    async (request, reply) => {
      administrator(request);
      if (!(await hooks.delete(recordId(request.params.id)))) throw notFound();
      return redirectWithNotice(request, reply, '/admin/hooks', 'Hook was successfully removed.');
    },
  );

  const showEdit = (request: FastifyRequest, reply: FastifyReply, hook: Hook, form: Omit<HookForm, 'csrfToken'>, status = 200) =>
    sendPage(
      request,
      reply,
      'Edit system hook · Admin area',
      editSystemHookPage(hook, { csrfToken: pageContext(request).csrfToken, ...form }),
      status,
    );

  pages.get<{ Params: { id: string } }>('/admin/hooks/:id/edit', { config: PAGE }, async (request, reply) => {
    administrator(request);
    const hook = await hooks.get(recordId(request.params.id));
    return showEdit(request, reply, hook, { values: hookValues(hook) });
  });

  // Rails' `PATCH /admin/hooks/:id`, sent by the form as a POST with `_method`.
  pages.post<{ Params: { id: string }; Body: typeof HookBody.static }>(
    '/admin/hooks/:id',
    { config: PAGE, schema: { body: HookBody } },
    async (request, reply) => {
      administrator(request);
      const hook = await hooks.get(recordId(request.params.id));
      const values = typedValues(request.body);
      try {
        await hooks.update(hook.id, values.url, { token: values.token.trim() || undefined, flags: values.flags });
      } catch (error) {
        const errors = fieldErrors(error);
        if (!errors) throw error;
        return showEdit(request, reply, hook, { values, errors }, 400);
      }
      return redirectWithNotice(request, reply, `/admin/hooks/${hook.id}`, 'Hook was successfully updated.');
    },
  );
}
