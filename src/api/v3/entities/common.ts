import { Type, type TSchema } from '@sinclair/typebox';

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** ISO 8601 timestamps with milliseconds and `Z`. */
export const Timestamp = Type.String({ format: 'date-time' });
export const NullableTimestamp = Nullable(Timestamp);

/** What entity mappers need to know about the server. */
export interface Presenter {
  externalUrl: string;
}
