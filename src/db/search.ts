import { sql, type RawBuilder } from 'kysely';

/** `column` contains `text`, ignoring case, with `%` and `_` taken literally, on both databases. */
export function containsText(column: string, text: string): RawBuilder<boolean> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}
