/** Timestamps are stored and shown as ISO 8601 UTC with milliseconds and `Z`. */
export const now = (): string => new Date().toISOString();

export const toIso = (value: string | Date | null | undefined): string | null =>
  value === null || value === undefined ? null : new Date(value).toISOString();

/** Parses a client-given time; undefined when it is not a time. */
export function parseTime(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}
