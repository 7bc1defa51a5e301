import type { FastifyReply, FastifyRequest } from 'fastify';
import { mergeParams } from './params';
import { LIMITS } from '../lib/limits';
import { routeOptionsOf } from './route-template';

export interface Page {
  page: number;
  perPage: number;
  offset: number;
  limit: number;
}

const DEFAULT_PER_PAGE = 20;

/** A positive integer, else undefined; `1e308` and `9223372036854775808` count, and are clamped by the caller. */
function positive(value: unknown): number | undefined {
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : undefined;
}

/**
 * `page` (default 1) and `per_page` (default 20, at most 100); nonsense (`0`, `-1`, `abc`) falls back
 * to the defaults and a page past `LIMITS.page` is that page: an empty one, never an offset a database refuses.
 */
export function pageOf(params: { page?: unknown; per_page?: unknown }): Page {
  const page = Math.min(positive(params.page) ?? 1, LIMITS.page);
  const perPage = Math.min(positive(params.per_page) ?? DEFAULT_PER_PAGE, LIMITS.perPage);
  return { page, perPage, offset: (page - 1) * perPage, limit: perPage };
}

/**
 * The headers of pages sent lately, by what they are built from (the URL, which names the route and
 * its parameters, the page and the total): the same list read again sends the same seven headers,
 * and building the Link header was most of what a small page cost beyond its rows.
 */
const recentPageHeaders = new Map<string, Record<string, string>>();
const RECENT_PAGE_HEADERS = 1_000;

/** GitLab's pagination headers, with a Link header built from the request's parameters (see `linkParams`). */
export function setPageHeaders(request: FastifyRequest, reply: FastifyReply, externalUrl: string, page: Page, total: number): void {
  // A body's parameters count too (`mergeParams`): only a request without one is looked up by its URL.
  const keyed = request.body === undefined || request.body === null;
  const key = keyed ? `${page.page} ${page.perPage} ${total} ${externalUrl} ${request.url}` : '';
  let headers = keyed ? recentPageHeaders.get(key) : undefined;
  if (headers === undefined) {
    headers = pageHeaders(request, externalUrl, page, total);
    if (keyed) {
      if (recentPageHeaders.size >= RECENT_PAGE_HEADERS) recentPageHeaders.clear();
      recentPageHeaders.set(key, headers);
    }
  }
  reply.headers(headers);
}

function pageHeaders(request: FastifyRequest, externalUrl: string, page: Page, total: number): Record<string, string> {
  const totalPages = Math.ceil(total / page.perPage);
  const next = page.page < totalPages ? page.page + 1 : undefined;
  const prev = page.page > 1 ? page.page - 1 : undefined;
  const queryStart = request.url.indexOf('?');
  const base = externalUrl + (queryStart === -1 ? request.url : request.url.slice(0, queryStart));
  // Every page of every list sends these: the query is encoded once, in key order, around `page`.
  const query = linkParams(request);
  query.page = undefined;
  query.per_page = page.perPage;
  let before = `<${base}?`;
  let after = '';
  let pageSeen = false;
  for (const key of Object.keys(query).sort()) {
    if (key === 'page') {
      before += 'page=';
      pageSeen = true;
    } else {
      const pair = `${encodeURIComponent(key)}=${encodeURIComponent(String(query[key]))}`;
      if (pageSeen) after += `&${pair}`;
      else before += `${pair}&`;
    }
  }
  let links = prev === undefined ? '' : `${before}${prev}${after}>; rel="prev", `;
  if (next !== undefined) links += `${before}${next}${after}>; rel="next", `;
  links += `${before}1${after}>; rel="first", ${before}${totalPages}${after}>; rel="last"`;
  return {
    'X-Total': String(total),
    'X-Total-Pages': String(totalPages),
    'X-Per-Page': String(page.perPage),
    'X-Page': String(page.page),
    'X-Next-Page': next === undefined ? '' : String(next),
    'X-Prev-Page': prev === undefined ? '' : String(prev),
    Link: links,
  };
}

/** Parameters the API reads whatever the route: GitLab's credentials, which a client following a link needs again. */
const CREDENTIALS = ['private_token', 'sudo'];

/**
 * The parameters each link repeats. GitLab echoed every request parameter, but a link repeats them
 * up to four times in one header and Node's HTTP clients (undici, fetch) refuse headers past 16 KB:
 * a 10 KB parameter made the answer unreadable. So links carry the parameters the route declares
 * (path and query schema) and the credentials, each only when no longer than `LIMITS.name`;
 * anything else is dropped. Every filter of a list is a name (its schema caps it there), so a
 * client following `next` keeps its query; only a value no filter accepts (a 10 KB `active`) or a
 * file path past 255 characters is left out. The header stays a few kilobytes at most.
 */
function linkParams(request: FastifyRequest): Record<string, unknown> {
  const declared = declaredQuery(routeOptionsOf(request).schema?.querystring);
  const pathParams = request.params as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(rawParams(request))) {
    // Nested forms (`a[b]=…`) and lists are not repeated; a path parameter wins over its namesake.
    if (typeof value === 'object' && value !== null) continue;
    if (name in pathParams || !(declared.has(name) || CREDENTIALS.includes(name))) continue;
    if (String(value).length <= LIMITS.name) kept[name] = value;
  }
  for (const [name, value] of Object.entries(pathParams)) if (String(value).length <= LIMITS.name) kept[name] = value;
  return kept;
}

/** The names a route's query schema declares, kept per schema (read on every page of every list). */
const declaredByQuerySchema = new WeakMap<object, Set<string>>();
const NOTHING_DECLARED = new Set<string>();

function declaredQuery(schema: unknown): Set<string> {
  if (schema === undefined || schema === null || typeof schema !== 'object') return NOTHING_DECLARED;
  let declared = declaredByQuerySchema.get(schema);
  if (declared === undefined) {
    declared = new Set(Object.keys((schema as { properties?: Record<string, unknown> }).properties ?? {}));
    declaredByQuerySchema.set(schema, declared);
  }
  return declared;
}

function rawParams(request: FastifyRequest): Record<string, unknown> {
  try {
    return mergeParams(request);
  } catch {
    return {};
  }
}
