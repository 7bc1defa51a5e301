import type { TSchema } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';

/**
 * The answer of a route whose response schema is a union of shapes (an `anyOf`, documented so),
 * serialized by the one shape the route knows it has. fast-json-stringify picks an `anyOf` branch
 * by validating the value against each in turn: for a page of projects, every field and date-time
 * of every project. The serializer is compiled once per route and schema (Fastify keeps it).
 */
export function sendAs(reply: FastifyReply, schema: TSchema, payload: unknown): FastifyReply {
  const serialize = reply.compileSerializationSchema(schema, '200');
  return reply.type('application/json; charset=utf-8').send(serialize(payload as { [key: string]: unknown }));
}
