import type { FastifyReply } from 'fastify';

/**
 * JSON bodies serialized once per answer object a service keeps (a comparison, a merge request's
 * changes: the same object for the same commits) and dropped with it. Kept as bytes: a string of
 * a megabyte was escaped and encoded to UTF-8 again on every send. Each door makes its own, as
 * each presents the record in its own shape; `contentType` is the door's JSON type.
 */
export class KeptBodies<R extends object> {
  private readonly bodies = new WeakMap<R, Buffer>();

  constructor(
    private readonly present: (record: R) => unknown,
    private readonly contentType: string,
  ) {}

  /** Sends the record's body, serialized by the route's response schema the first time. */
  send(reply: FastifyReply, record: R) {
    let body = this.bodies.get(record);
    if (body === undefined) {
      body = Buffer.from(reply.serialize(this.present(record)) as string);
      this.bodies.set(record, body);
    }
    // Bytes go out as they are: Fastify serializes only objects.
    return reply.type(this.contentType).send(body as never);
  }
}
