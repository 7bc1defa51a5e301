import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services/index';
import type { SettingChanges } from '../services/settings/settings';
import { PAGE, pageContext, sendPage } from './request';
import { fieldErrors, type FieldErrors } from './form-errors';
import { administrator } from './admin-guard';
import { applicationSettingsPage, formValuesOf, SETTING_FIELDS, type SettingsFormValues } from './pages/admin/application-settings';

const Value = Type.Optional(Type.Union([Type.String({ maxLength: 4096 }), Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 8 })]));
const SettingsBody = Type.Object({
  authenticity_token: Type.Optional(Type.String({ maxLength: 255 })),
  ...Object.fromEntries(SETTING_FIELDS.map(([key]) => [key, Value])),
});
type Body = Record<string, string | string[] | undefined>;

const last = (value: string | string[] | undefined) => ([] as string[]).concat(value ?? []).at(-1) ?? '';

/**
 * The form as the settings service takes a `PUT /application/settings`, or the door's own refusal
 * of a number that is not one (the API's schema refuses it too). Texts and lists left blank
 * clear them, as a blank does through the API.
 */
function changesOf(
  body: Body,
): { changes: SettingChanges; values: SettingsFormValues } | { errors: FieldErrors; values: SettingsFormValues } {
  const changes: Record<string, unknown> = {};
  const values: SettingsFormValues = {};
  const errors: FieldErrors = {};
  for (const [key, , kind] of SETTING_FIELDS) {
    const given = body[key];
    if (kind === 'levels') {
      const levels = ([] as string[]).concat(given ?? []).filter((level) => level !== '');
      values[key] = levels;
      changes[key] = levels.map(Number);
      continue;
    }
    const value = last(given).trim();
    values[key] = kind === 'boolean' ? (value === '1' ? '1' : '0') : last(given);
    if (kind === 'boolean') changes[key] = value === '1';
    else if (kind === 'list') changes[key] = value.split(/[\s,]+/).filter(Boolean);
    else if (kind === 'text') changes[key] = value;
    else if (!/^\d{1,10}$/.test(value)) errors[key] = ['must be a whole number, 0 or more'];
    else changes[key] = Number(value);
  }
  return Object.keys(errors).length > 0 ? { errors, values } : { changes: changes as SettingChanges, values };
}

/** Application settings (GitLab 8.12's `/admin/application_settings`): every setting `PUT /application/settings` takes, through the same service. */
export function adminSettingsRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  const show = (
    request: FastifyRequest,
    reply: FastifyReply,
    form: { values: SettingsFormValues; errors?: FieldErrors; notice?: string },
  ) =>
    sendPage(
      request,
      reply,
      'Application settings · Admin area',
      applicationSettingsPage({ csrfToken: pageContext(request).csrfToken, ...form }),
      form.errors ? 400 : 200,
    );

  pages.get('/admin/application_settings', { config: PAGE }, async (request, reply) => {
    administrator(request);
    return show(request, reply, { values: formValuesOf(await services.settings.get()) });
  });

  pages.post<{ Body: Body }>('/admin/application_settings', { config: PAGE, schema: { body: SettingsBody } }, async (request, reply) => {
    administrator(request);
    const given = changesOf(request.body);
    if ('errors' in given) return show(request, reply, given);
    try {
      const saved = await services.settings.update(given.changes);
      return show(request, reply, { values: formValuesOf(saved), notice: 'Application settings saved successfully.' });
    } catch (error) {
      const errors = fieldErrors(error);
      if (!errors) throw error;
      return show(request, reply, { values: given.values, errors });
    }
  });
}
