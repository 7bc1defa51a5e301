/**
 * Rows for one multi-row insert each. A statement may carry at most 32,766 parameters on SQLite
 * and 65,535 on PostgreSQL: 500 rows of up to 60 columns stay below both.
 */
export function chunksOf<T>(rows: T[], size = 500): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < rows.length; start += size) chunks.push(rows.slice(start, start + size));
  return chunks;
}
