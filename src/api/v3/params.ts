import { Type } from '@sinclair/typebox';

/**
 * A record id in a path. Ids are 32-bit integers in both databases, so a larger
 * number names no record: it fails validation, which answers 404 for path parameters.
 */
export const RecordId = Type.Integer({ minimum: 0, maximum: 2147483647 });
