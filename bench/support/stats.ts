/** Nearest-rank percentile (p in 0..100) of unsorted samples. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export const median = (samples: number[]): number => percentile(samples, 50);

export function ms(value: number): string {
  if (!Number.isFinite(value)) return '-';
  return value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(2)} ms`;
}

export const ratio = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '-');

/** A plain text table: columns padded to their widest cell, numbers right-aligned. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => (row[i] ?? '').length)));
  const numeric = header.map(
    (_, i) => rows.length > 0 && rows.every((row) => /^[-\d.,]+( ms| s|×|%| req\/s| MB\/s)?$|^-$/.test(row[i] ?? '')),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (numeric[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
