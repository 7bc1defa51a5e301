import { ApiError } from '../errors';

/** A field's messages, as a service's validation named them (`{ email: ['is invalid'] }`). */
export type FieldErrors = Record<string, string[]>;

/**
 * The messages of a refused record, to show beside the form's `fields`; undefined for any other
 * error, which the caller rethrows (a missing record stays a 404). Besides a record's validation
 * messages, the services answer a taken value as one sentence (`Email has already been taken`,
 * the API's 404 or 409): it is shown beside the field it starts with.
 */
export function fieldErrors(error: unknown, fields: readonly string[]): FieldErrors | undefined {
  if (!(error instanceof ApiError) || ![400, 404, 409].includes(error.status)) return undefined;
  const message = (error.body as { message?: unknown } | undefined)?.message;
  if (typeof message === 'string') {
    const field = fields.find((name) => message.toLowerCase().startsWith(`${name.replaceAll('_', ' ')} `));
    return field ? { [field]: [message.slice(field.length + 1)] } : undefined;
  }
  if (!message || typeof message !== 'object' || Array.isArray(message)) return undefined;
  return Object.fromEntries(
    Object.entries(message as Record<string, unknown>).map(([field, list]) => [
      field,
      Array.isArray(list) ? list.map(String) : [String(list)],
    ]),
  );
}
