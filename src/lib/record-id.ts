/** The largest id of a record: ids are 32-bit integer columns. */
export const MAX_RECORD_ID = 2 ** 31 - 1;

/**
 * A record id as Rails' `find` reads one from a path: digits within the 32-bit range; anything else
 * names no record (and a larger number would be refused by PostgreSQL's integer column).
 */
export function recordIdOf(text: string): number | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const id = Number(text);
  return id <= MAX_RECORD_ID ? id : undefined;
}
