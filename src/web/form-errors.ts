import { ApiError } from '../errors';

/** A refused form's messages by field (`base` for the form as a whole). */
export type FieldErrors = Record<string, string[]>;

/**
 * What a service's refusal of a form says, by field, so the form is shown again beside what was
 * typed; undefined for anything that is not a refusal of the input (a 404, a crash), which stays an error page.
 */
export function fieldErrors(error: unknown): FieldErrors | undefined {
  if (!(error instanceof ApiError) || ![400, 405, 406, 409, 422].includes(error.status)) return undefined;
  const message = (error.body as { message?: unknown })?.message;
  if (typeof message === 'string') return { base: [message.replace(/^\d{3} (\(Bad request\) )?/, '')] };
  if (Array.isArray(message)) return { base: message.map(String) };
  if (message && typeof message === 'object')
    return Object.fromEntries(Object.entries(message).map(([field, list]) => [field, ([] as unknown[]).concat(list).map(String)]));
  return { base: ['The form could not be saved.'] };
}
