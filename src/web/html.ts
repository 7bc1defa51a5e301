/*
 * Pages are built by typed functions returning `SafeHtml`. The `html` tag escapes every
 * interpolated value unless it is already `SafeHtml` (another template's output, or a string a
 * maintained sanitizer produced and marked with `trusted`), so a user's string can only reach a
 * page as text.
 */

const SAFE = Symbol('safe-html');

export interface SafeHtml {
  readonly [SAFE]: true;
  readonly value: string;
}

/** What a template may interpolate: text (escaped), markup, lists of either, or nothing. */
export type Interpolation = SafeHtml | string | number | boolean | null | undefined | readonly Interpolation[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (char) => ESCAPES[char]);
}

/** Marks markup as safe. Only for what Forge itself produced or a sanitizer cleaned, never for user input as it came. */
export function trusted(markup: string): SafeHtml {
  return { [SAFE]: true, value: markup };
}

export function isSafeHtml(value: unknown): value is SafeHtml {
  return typeof value === 'object' && value !== null && (value as { [SAFE]?: true })[SAFE] === true;
}

function render(value: Interpolation): string {
  // false, null and undefined render as nothing, so `${condition && html`…`}` reads naturally.
  if (value === null || value === undefined || value === false) return '';
  if (isSafeHtml(value)) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0];
  for (let index = 0; index < values.length; index++) out += render(values[index]) + strings[index + 1];
  return trusted(out);
}
