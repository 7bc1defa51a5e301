/**
 * The one catalogue of errors. Services throw these; the HTTP error handler
 * turns them into GitLab's bodies. No route builds an error body by hand.
 */
export type ValidationMessages = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'object' && body && 'message' in body ? JSON.stringify((body as { message: unknown }).message) : String(status));
  }
}

/** `404 Project Not Found`, or `404 Not Found` without a resource. */
export const notFound = (resource?: string) => new ApiError(404, { message: resource ? `404 ${resource} Not Found` : '404 Not Found' });

/** A 404 whose message names what is missing in GitLab's own words (`No such tag`). */
export const notFoundMessage = (message: string) => new ApiError(404, { message });

/** GitLab's global handler for a failed record lookup (lower-case f). */
export const recordNotFound = () => new ApiError(404, { message: '404 Not found' });

export const unauthorized = () => new ApiError(401, { message: '401 Unauthorized' });

export const forbidden = (reason?: string) => new ApiError(403, { message: reason ? `403 Forbidden - ${reason}` : '403 Forbidden' });

/** A required parameter is missing or blank. */
export const notGiven = (attribute: string) => new ApiError(400, { message: `400 (Bad request) "${attribute}" not given` });

/** A parameter has the wrong type or an unknown value. */
export const invalidParam = (attribute: string) => new ApiError(400, { message: `400 (Bad request) "${attribute}" is invalid` });

export const badRequest = (message: string) => new ApiError(400, { message });

/** A model validation failure: `{"message": {"field": ["text"]}}`. */
export const validationFailed = (messages: ValidationMessages) => new ApiError(400, { message: messages });

/** `409` with a message, a model's base errors (a duplicate merge request), or validation messages (a fork that cannot be saved). */
export const conflict = (message: string | string[] | ValidationMessages = '409 Conflict') => new ApiError(409, { message });

/** A request body past its route's limit (`LIMITS`). */
export const tooLarge = () => new ApiError(413, { message: '413 Request Entity Too Large' });

/**
 * GitLab's `render_api_error!("Failed to save group #{group.errors.messages}", 400)`: the messages
 * as Ruby inspects a Hash, inside a string (`Failed to save group {:path=>["has already been taken"]}`).
 */
export const failedTo = (action: string, messages: ValidationMessages) =>
  new InspectedValidation(400, { message: `Failed to ${action} ${rubyInspect(messages)}` }, messages);

/** A validation failure whose body holds the messages as text; they are kept as fields too, for the web's forms. */
export class InspectedValidation extends ApiError {
  constructor(
    status: number,
    body: unknown,
    readonly messages: ValidationMessages,
  ) {
    super(status, body);
  }
}

/**
 * 8.12's `not_found!("Award Emoji #{award.errors.messages}")`: a record's validation messages as
 * Ruby inspects them, inside a 404 (`404 Award Emoji {:name=>["has already been taken"]} Not Found`).
 */
export const notFoundWithMessages = (resource: string, messages: ValidationMessages) => notFound(`${resource} ${rubyInspect(messages)}`);

/** `String#inspect`'s escapes: named ones, `#` before an interpolation, `\u00XX` for other controls. */
const RUBY_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '"': '\\"',
  '#': '\\#',
  '\n': '\\n',
  '\t': '\\t',
  '\r': '\\r',
  '\x1b': '\\e',
  '\x07': '\\a',
  '\b': '\\b',
  '\v': '\\v',
  '\f': '\\f',
};

export const rubyString = (text: string) =>
  `"${text.replace(/[\\"]|#(?=[{$@])|[\x00-\x1f\x7f]/g, (char) => RUBY_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`)}"`;

/** `Hash#inspect` of an errors hash: symbol keys, arrays of strings. */
function rubyInspect(messages: ValidationMessages): string {
  return `{${Object.entries(messages)
    .map(([field, texts]) => `:${field}=>[${texts.map(rubyString).join(', ')}]`)
    .join(', ')}}`;
}

export const notModified = () => new ApiError(304, undefined);

/** GitLab's `render_api_error!(message, status)`: any status, the body `{"message": …}`. */
export const apiError = (status: number, message: string) => new ApiError(status, { message });

/**
 * Grape's own `error!(…)`, which some 8.12 rows answer with: the body `{"error": …}` (a string,
 * or an array for a model's base errors).
 */
export const grapeError = (status: number, error: string | string[]) => new ApiError(status, { error });

/**
 * OAuth2's errors (RFC 6749, as Doorkeeper words them), which GitLab also answers for bearer
 * credentials: `{"error": "invalid_grant", "error_description": "…"}`.
 */
export const oauthError = (status: number, error: string, description: string, extra: Record<string, string> = {}) =>
  new ApiError(status, { error, error_description: description, ...extra });

/** A token whose scopes do not cover the request (GitLab's 403, naming the scope that would). */
export const insufficientScope = (scope: string) =>
  oauthError(403, 'insufficient_scope', 'The request requires higher privileges than provided by the access token.', { scope });

/** A revoked or expired token: 401 with the reason, so that a client knows to ask for a new one. */
export const invalidToken = (reason: 'revoked' | 'expired') =>
  oauthError(
    401,
    'invalid_token',
    reason === 'revoked' ? 'Token was revoked. You have to re-authorize from the user.' : 'Token has expired.',
  );

/** The trace PATCH's answer to a part that does not start where the stored trace ends: the length in `Range`. */
/** GitLab's `job_forbidden!`: a job no longer running, its status in `Job-Status` (a v4 runner stops on it). */
export const jobNotRunning = (status: string) =>
  new ApiError(403, { message: '403 Forbidden - Job is not running' }, { 'Job-Status': status });

export const rangeNotSatisfiable = (length: number) => new ApiError(416, { error: '416 Range Not Satisfiable' }, { Range: `0-${length}` });

/** Collects per-field validation messages, GitLab style. */
export class Validation {
  readonly messages: ValidationMessages = {};

  add(field: string, message: string): void {
    (this.messages[field] ??= []).push(message);
  }

  get ok(): boolean {
    return Object.keys(this.messages).length === 0;
  }

  throwIfInvalid(): void {
    if (!this.ok) throw validationFailed(this.messages);
  }
}
