/**
 * Time tracking's durations as GitLab reads and writes them (`Gitlab::TimeTrackingFormatter`, over
 * ChronicDuration): a working day is 8 hours, a week 5 days, a month 4 weeks; a bare number is hours.
 */
const UNIT_SECONDS: Record<string, number> = {
  mo: 4 * 5 * 8 * 3600,
  w: 5 * 8 * 3600,
  d: 8 * 3600,
  h: 3600,
  m: 60,
  s: 1,
};
const UNIT_NAMES: Record<string, string> = {
  mo: 'mo',
  month: 'mo',
  months: 'mo',
  w: 'w',
  week: 'w',
  weeks: 'w',
  d: 'd',
  day: 'd',
  days: 'd',
  h: 'h',
  hr: 'h',
  hrs: 'h',
  hour: 'h',
  hours: 'h',
  m: 'm',
  min: 'm',
  mins: 'm',
  minute: 'm',
  minutes: 'm',
  s: 's',
  sec: 's',
  secs: 's',
  second: 's',
  seconds: 's',
};
const PART = /(\d+(?:\.\d+)?)\s*([a-z]*)/gy;
/** The most a duration may hold: the database keeps seconds in a 32-bit integer (68 years). */
export const MAX_DURATION_SECONDS = 2_147_483_647;

/** Seconds of `3h30m`, `1w 2d`, `-30m` (a leading minus subtracts) or `2` (hours); undefined when not a duration, or one past `MAX_DURATION_SECONDS`. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim().toLowerCase();
  const negative = trimmed.startsWith('-');
  const body = (negative ? trimmed.slice(1) : trimmed).trim();
  if (body === '') return undefined;
  let seconds = 0;
  let at = 0;
  PART.lastIndex = 0;
  while (at < body.length) {
    PART.lastIndex = at;
    const match = PART.exec(body);
    if (!match) return undefined;
    const unit = match[2] === '' ? 'h' : UNIT_NAMES[match[2]];
    if (unit === undefined) return undefined;
    seconds += Number(match[1]) * UNIT_SECONDS[unit];
    at = PART.lastIndex;
    while (body[at] === ' ' || body[at] === ',') at++;
  }
  const rounded = Math.round(seconds);
  if (!(rounded <= MAX_DURATION_SECONDS)) return undefined;
  return negative ? -rounded : rounded;
}

const OUTPUT_UNITS = ['w', 'd', 'h', 'm', 's'] as const;

/** `1w 2d 3h 30m`, as GitLab shows an estimate or a total; null for zero. */
export function formatDuration(seconds: number): string | null {
  if (seconds === 0) return null;
  let left = Math.abs(seconds);
  const parts: string[] = [];
  for (const unit of OUTPUT_UNITS) {
    const count = Math.floor(left / UNIT_SECONDS[unit]);
    left -= count * UNIT_SECONDS[unit];
    if (count > 0) parts.push(`${count}${unit}`);
  }
  return `${seconds < 0 ? '-' : ''}${parts.join(' ')}`;
}
