import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { pageOf, setPageHeaders } from '../../http/pagination';
import type { Presenter } from '../shared/types';

/** `page` and `per_page`, which every v4 list declares (GitLab's `paginate`). */
export const PageQuery = {
  page: Type.Optional(Type.Any()),
  per_page: Type.Optional(Type.Any()),
};

/**
 * One page of a list a service answers whole (a user's keys or e-mails, the system hooks: short
 * lists), with v4's pagination headers.
 */
export function pageOfList<T>(request: FastifyRequest, reply: FastifyReply, presenter: Presenter, items: readonly T[]): T[] {
  const page = pageOf(request.query as Record<string, unknown>);
  setPageHeaders(request, reply, presenter.externalUrl, page, items.length);
  return items.slice(page.offset, page.offset + page.limit);
}
