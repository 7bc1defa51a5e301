import { Type, type Static, type TSchema } from '@sinclair/typebox';

/*
 * Schema pieces more than one door's entities use. A door of one API version never imports
 * another's (v3, the runner API, a later v4): what they share lives here.
 */

/**
 * `T` or null, written as OpenAPI 3.0's `nullable` rather than `anyOf`: fast-json-stringify picks
 * an `anyOf` branch by validating the value against each (a date-time pattern for each timestamp).
 */
export const Nullable = <T extends TSchema>(schema: T) =>
  typeof schema.type === 'string' ? Type.Unsafe<Static<T> | null>({ ...schema, nullable: true }) : Type.Union([schema, Type.Null()]);

/** ISO 8601 timestamps with milliseconds and `Z`. */
export const Timestamp = Type.String({ format: 'date-time' });
export const NullableTimestamp = Nullable(Timestamp);

/** The variables a trigger was called with, as given; null when none were (v3's and the runner API's trigger requests). */
export const TriggerVariables = Nullable(Type.Record(Type.String(), Type.String()));
