import { ApiError, InspectedValidation } from '../errors';

/** A refused form's messages by field (`base` for the form as a whole), as a service's validation named them. */
export type FieldErrors = Record<string, string[]>;

/**
 * What a service's refusal of a form says, by field, so the form is shown again beside what was
 * typed; undefined for anything that is not a refusal of the input (a missing record, a crash),
 * which the caller rethrows as an error page.
 *
 * With `fields` (the profile's forms), a taken value the services answer as one sentence
 * (`Email has already been taken`, a 404 or 409) is shown beside the field it starts with, and a
 * sentence naming no field is not a form error. Without, a sentence is the form's own (`base`).
 */
export function fieldErrors(error: unknown, fields?: readonly string[]): FieldErrors | undefined {
  const statuses = fields ? [400, 404, 409] : [400, 405, 406, 409, 422];
  if (!(error instanceof ApiError) || !statuses.includes(error.status)) return undefined;
  // 8.12 words some refusals as one inspected string (`Failed to save group {:path=>[…]}`): its fields are kept beside it.
  if (error instanceof InspectedValidation) return { ...error.messages };
  // Most refusals say `message`; Grape-style ones (a merge request's branches) say `error`.
  const body = error.body as { message?: unknown; error?: unknown } | undefined;
  const message = body?.message ?? body?.error;
  if (typeof message === 'string') {
    if (!fields) return { base: [message.replace(/^\d{3} (\(Bad request\) )?/, '')] };
    const field = fields.find((name) => message.toLowerCase().startsWith(`${name.replaceAll('_', ' ')} `));
    return field ? { [field]: [message.slice(field.length + 1)] } : undefined;
  }
  if (Array.isArray(message)) return fields ? undefined : { base: message.map(String) };
  if (message && typeof message === 'object')
    return Object.fromEntries(Object.entries(message).map(([field, list]) => [field, ([] as unknown[]).concat(list).map(String)]));
  return fields ? undefined : { base: ['The form could not be saved.'] };
}
