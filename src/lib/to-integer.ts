/** Ruby's `to_i` on a parameter as clients send it: leading digits of text, a number cut to an integer; otherwise nothing. */
export function toInteger(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const number = Number.parseInt(value.trim(), 10);
  return Number.isNaN(number) ? undefined : number;
}
