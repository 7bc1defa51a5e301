import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import { ApiError, badRequest, invalidParam, notFound, tooLarge } from '../errors';
import { LIMITS } from '../lib/limits';
import { parseRackForm } from './rack-form';
import { routeOptionsOf } from './route-template';

type Params = Record<string, unknown>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Parameters that may hold NUL bytes: content that goes to git only (the files API's `content`). */
    nulBytesIn?: string[];
    /**
     * The route reads its body itself (a trace part as raw bytes, an artifacts upload streamed
     * part by part): its parameters come from the query string only, and a multipart body is
     * left unread here rather than buffered whole.
     */
    ownBody?: boolean;
    /**
     * How a missing required parameter is answered: GitLab 8.12 had two forms. By default, its
     * `required_attributes!` (`400 {"message":"400 (Bad request) \"body\" not given"}`, a blank
     * value counting as not given); with `grapeParams`, Grape's own `requires`
     * (`400 {"error":"name is missing"}`, where a blank value is given, left to the record to refuse).
     * Either way the check is the route schema's `required` (`http/errors.ts` words the answer),
     * after authentication and the project guard.
     */
    grapeParams?: boolean;
  }
}
type Schema = { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; anyOf?: Schema[]; items?: Schema };

/**
 * GitLab reads parameters from the query string, urlencoded and multipart forms
 * and JSON bodies alike, merged into one set. Each route declares that set once:
 * under `querystring` for GET/HEAD/DELETE, under `body` otherwise.
 */
export async function registerParamParsing(app: FastifyInstance): Promise<void> {
  // An empty body labelled JSON is an empty parameter set (GitLab clients send them).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(badRequest('400 (Bad request) the body is not valid JSON'), undefined);
    }
  });
  await app.register(formbody, { parser: parseRackForm });
  // A field may be as large as the whole API body; past that busboy would cut it short silently.
  await app.register(multipart, { limits: { fieldSize: LIMITS.apiBodyBytes, fileSize: LIMITS.apiBodyBytes } });

  app.addHook('preValidation', async (request) => {
    if (routeOptionsOf(request).config.ownBody) {
      const query = request.query as Params;
      refuseNulBytes(request.params as Params, query, []);
      (request as { query: unknown }).query = normalize(query, (routeOptionsOf(request).schema?.querystring ?? {}) as Schema);
      return;
    }
    if (request.isMultipart()) request.body = await readForm(request);
    const schema = routeOptionsOf(request).schema;
    const merged = mergeParams(request);
    refuseNulBytes(request.params as Params, merged, routeOptionsOf(request).config.nulBytesIn ?? []);
    const blankIsMissing = !routeOptionsOf(request).config.grapeParams;
    if (schema?.body) {
      request.body = normalize(merged, schema.body as Schema, blankIsMissing);
    } else {
      (request as { query: unknown }).query = normalize(merged, (schema?.querystring ?? {}) as Schema, blankIsMissing);
    }
  });
}

/** A multipart file part: its bytes, carrying the name the client gave the file (a Buffer still, for every reader of bytes). */
export type UploadedFile = Buffer & { filename?: string };

/** The file name a multipart part was sent with, when the value is such a part. */
export function uploadedFileName(value: unknown): string | undefined {
  return Buffer.isBuffer(value) ? (value as UploadedFile).filename || undefined : undefined;
}

/**
 * A multipart form as key/values (files as Buffers with their `filename`, repeated keys as arrays). The plugin's own
 * `attachFieldsToBody` lets busboy's errors (no boundary, a truncated body, a boundary that never
 * closes) through as 500s; here each is the client's bad request, and a part past the limit a 413.
 */
async function readForm(request: FastifyRequest): Promise<Params> {
  const form: Params = {};
  // busboy bounds each part; the whole form is bounded here, as `bodyLimit` bounds other bodies.
  let size = 0;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field' && part.valueTruncated) throw tooLarge();
      const value = part.type === 'file' ? Object.assign(await part.toBuffer(), { filename: part.filename }) : part.value;
      size += Buffer.isBuffer(value) ? value.length : Buffer.byteLength(String(value));
      if (size > (routeOptionsOf(request).bodyLimit ?? LIMITS.apiBodyBytes)) throw tooLarge();
      const previous = form[part.fieldname];
      form[part.fieldname] = previous === undefined ? value : ([] as unknown[]).concat(previous, value);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if ((error as FastifyError).statusCode === 413) throw tooLarge();
    throw badRequest('400 (Bad request) the multipart body is malformed');
  }
  return form;
}

/**
 * No text with a NUL byte goes further: PostgreSQL cannot store one (it answered 500) and git
 * refuses it in messages. A path parameter holding one names nothing (404); any other parameter
 * is invalid (400). Runs before the project guard looks anything up.
 */
function refuseNulBytes(pathParams: Params | undefined, params: Params, allowed: string[]): void {
  for (const value of Object.values(pathParams ?? {})) if (holdsNul(value)) throw notFound();
  for (const [name, value] of Object.entries(params)) if (!allowed.includes(name) && holdsNul(value)) throw invalidParam(name);
}

/** Walked with a stack of its own: a JSON body may nest thousands of levels deep. */
function holdsNul(root: unknown): boolean {
  const pending = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (value.includes('\0')) return true;
    } else if (Array.isArray(value)) {
      pending.push(...value);
    } else if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
      // Nested forms (`a[b]=…`, JSON objects): their keys become data as well as their values.
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\0')) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

/** All request parameters: query string first, the body's win. */
export function mergeParams(request: FastifyRequest): Params {
  const body = request.body;
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
    throw badRequest('400 (Bad request) the body must be a JSON object or a form');
  }
  return { ...(request.query as Params), ...((body as Params | undefined) ?? {}) };
}

/**
 * A hash parameter, from a JSON body's object or from form and query keys as Rack nested them:
 * `name[key]=value` and `name[key][]=value` (a list), deeper `name[a][b]` hashes. Undefined when not
 * given; whatever else was sent as `name` is returned for the caller to judge. A plain value beside
 * bracketed keys is invalid, as Rack refused it.
 */
export function hashParam(params: Params, name: string): unknown {
  const prefix = `${name}[`;
  const nested = Object.entries(params).filter(([key]) => key.startsWith(prefix));
  const plain = params[name];
  if (nested.length === 0) return plain;
  if (plain !== undefined && !isHash(plain)) throw invalidParam(name);
  // Without a prototype, a key such as `__proto__` is a key like any other.
  const hash: Params = Object.assign(Object.create(null), plain);
  for (const [key, value] of nested) {
    const path = bracketPath(key.slice(name.length));
    if (!path) throw invalidParam(name);
    let target = hash;
    for (const [index, segment] of path.entries()) {
      if (index === path.length - 1) {
        target[segment] = value;
      } else if (path[index + 1] === '' && index + 1 === path.length - 1) {
        target[segment] = Array.isArray(value) ? value : [value];
        break;
      } else {
        const next = target[segment] ?? Object.create(null);
        if (!isHash(next)) throw invalidParam(name);
        target = target[segment] = next;
      }
    }
  }
  return hash;
}

/** `[a][b][]` as `['a', 'b', '']`; undefined for anything else (a list that is not last, a NUL, an unclosed bracket). */
function bracketPath(rest: string): string[] | undefined {
  if (!/^(\[[^[\]\0]*\])+$/.test(rest)) return undefined;
  const path = rest.slice(1, -1).split('][');
  return path.slice(0, -1).includes('') ? undefined : path;
}

const isHash = (value: unknown): value is Params =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !Buffer.isBuffer(value);

const TRUE = new Set(['true', 't', 'yes', 'y', '1', 'on']);
const FALSE = new Set(['false', 'f', 'no', 'n', '0', 'off']);

/** GitLab's `to_boolean`: undefined when the value is neither. */
export function toBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : undefined;
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  return TRUE.has(word) ? true : FALSE.has(word) ? false : undefined;
}

function accepts(schema: Schema | undefined, type: string): boolean {
  if (!schema) return false;
  if (schema.anyOf) return schema.anyOf.some((option) => accepts(option, type));
  return Array.isArray(schema.type) ? schema.type.includes(type) : schema.type === type;
}

/**
 * Applies GitLab's coercions before validation: `key[]` arrays, booleans by `to_boolean`, nulls
 * dropped, and blank required values treated as missing (`required_attributes!`'s `blank?`) unless
 * the route's parameters are Grape-declared.
 */
function normalize(params: Params, schema: Schema, blankIsMissing = true): Params {
  const result: Params = {};
  for (const [rawKey, value] of Object.entries(params)) {
    // A JSON null is an absent parameter, as in GitLab; validation would otherwise coerce it to 0, false or "".
    if (value === null) continue;
    // `name[]` is a list; `name[key][]` is left whole for `hashParam` to fold.
    const key = /^[^[]+\[\]$/.test(rawKey) ? rawKey.slice(0, -2) : rawKey;
    result[key] = value;
  }
  const properties = schema.properties ?? {};
  for (const [key, property] of Object.entries(properties)) {
    const value = result[key];
    if (value === undefined) continue;
    if (accepts(property, 'boolean') && !accepts(property, 'string')) {
      const bool = toBoolean(value);
      if (bool !== undefined) result[key] = bool;
    } else if (accepts(property, 'array') && !Array.isArray(value)) {
      result[key] = [value];
    }
  }
  for (const key of blankIsMissing ? (schema.required ?? []) : []) {
    const value = result[key];
    if (typeof value === 'string' && value.trim() === '') delete result[key];
  }
  return result;
}
