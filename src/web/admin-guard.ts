import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { notFound } from '../errors';
import { administers } from '../services/policy';
import type { User } from '../services/users/users';

/** The administrator making the request; to anyone else, signed in or not, a 404 as for a page that does not exist. */
export function administrator(request: FastifyRequest): User {
  const user = request.web.user;
  if (!user || !administers(user)) throw notFound();
  return user;
}

/** Every administration list shows this many a page. */
export const ADMIN_PER_PAGE = 50;

export const adminWindow = (page: number) => ({ offset: (page - 1) * ADMIN_PER_PAGE, limit: ADMIN_PER_PAGE });

/** A form that carries nothing but its CSRF token (a button). */
export const TokenBody = Type.Object({ authenticity_token: Type.Optional(Type.String({ maxLength: 255 })) });

/** A checkbox sent with a hidden "0" before it: one value, or both when ticked. */
export const Checkbox = Type.Optional(
  Type.Union([Type.String({ maxLength: 1 }), Type.Array(Type.String({ maxLength: 1 }), { maxItems: 2 })]),
);

/** Whether a checkbox (with its hidden "0") was ticked: the last value sent counts. */
export const ticked = (value: string | string[] | undefined): boolean => ([] as string[]).concat(value ?? []).at(-1) === '1';
