/**
 * The day a `/due` argument names, as `YYYY-MM-DD`, or undefined when it names none (the command is
 * then ignored, as 8.12 ignored what Chronic could not parse). 8.12 read the argument with Ruby's
 * Chronic; Forge reads the forms its documentation showed and the usual ones beside them:
 * `2026-12-31`, `today`, `tomorrow`, `in 2 days` (`weeks`, `months`, `years`), `this Friday`,
 * `next Friday`, `Friday`, `December 31st`, `31 December 2026`, `Dec 31, 2026`. A day without a
 * year is the next such day (Chronic's `:future`). Times are UTC.
 */
export function parseDueDate(arg: string, today: Date = new Date()): string | undefined {
  const text = arg.trim().toLowerCase().replace(/\s+/g, ' ');
  const base = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()));
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (iso) return Number(iso[2]) >= 1 && Number(iso[2]) <= 12 ? day(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3])) : undefined;
  if (text === 'today') return format(base);
  if (text === 'tomorrow') return format(addDays(base, 1));
  const relative = /^in (\d{1,4}|an?|one) (day|week|month|year)s?$/.exec(text);
  if (relative) {
    const count = /^\d/.test(relative[1]) ? Number(relative[1]) : 1;
    const unit = relative[2];
    if (unit === 'day') return format(addDays(base, count));
    if (unit === 'week') return format(addDays(base, 7 * count));
    const months = unit === 'month' ? count : 12 * count;
    return day(base.getUTCFullYear(), base.getUTCMonth() + months, base.getUTCDate(), true);
  }
  const weekday = /^(?:(this|next) )?([a-z]+)$/.exec(text);
  const dayIndex = weekday ? WEEKDAYS.findIndex((name) => name.startsWith(weekday[2]) && weekday[2].length >= 3) : -1;
  if (weekday && dayIndex >= 0) {
    let ahead = (dayIndex - base.getUTCDay() + 7) % 7;
    if (ahead === 0) ahead = 7;
    if (weekday[1] === 'next') ahead += 7;
    return format(addDays(base, ahead));
  }
  const monthFirst = /^([a-z]+)\.? (\d{1,2})(?:st|nd|rd|th)?(?:,? (\d{4}))?$/.exec(text);
  const dayFirst = /^(\d{1,2})(?:st|nd|rd|th)? ([a-z]+)\.?(?:,? (\d{4}))?$/.exec(text);
  const named = monthFirst
    ? { month: monthFirst[1], date: monthFirst[2], year: monthFirst[3] }
    : dayFirst
      ? { month: dayFirst[2], date: dayFirst[1], year: dayFirst[3] }
      : undefined;
  if (named) {
    const month = MONTHS.findIndex((name) => name.startsWith(named.month) && named.month.length >= 3);
    if (month < 0) return undefined;
    if (named.year !== undefined) return day(Number(named.year), month, Number(named.date));
    const thisYear = day(base.getUTCFullYear(), month, Number(named.date));
    if (thisYear === undefined) return day(base.getUTCFullYear() + 1, month, Number(named.date));
    return thisYear >= format(base) ? thisYear : day(base.getUTCFullYear() + 1, month, Number(named.date));
  }
  return undefined;
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

const addDays = (date: Date, days: number) => new Date(date.getTime() + days * 86_400_000);
const format = (date: Date) => date.toISOString().slice(0, 10);

/** The day, or undefined when it does not exist (31 February); `clamp` takes the month's last day instead (a month from 31 January). */
function day(year: number, month: number, date: number, clamp = false): string | undefined {
  const first = new Date(Date.UTC(year, month, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  if (date < 1 || (date > last && !clamp) || year > 9999) return undefined;
  return format(new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(date, last))));
}
