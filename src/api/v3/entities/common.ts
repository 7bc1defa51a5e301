import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { UrlBase } from '../../../lib/urls';

/**
 * `T` or null, written as OpenAPI 3.0's `nullable` rather than `anyOf`: fast-json-stringify picks
 * an `anyOf` branch by validating the value against each (a date-time pattern for each timestamp).
 */
export const Nullable = <T extends TSchema>(schema: T) =>
  typeof schema.type === 'string' ? Type.Unsafe<Static<T> | null>({ ...schema, nullable: true }) : Type.Union([schema, Type.Null()]);

/** ISO 8601 timestamps with milliseconds and `Z`. */
export const Timestamp = Type.String({ format: 'date-time' });
export const NullableTimestamp = Nullable(Timestamp);

/** What entity mappers need to know about the server: its addresses (the config). */
export type Presenter = UrlBase;
