import type { Selectable } from 'kysely';
import type { LabelsTable } from '../../db/schema';
import type { Validation } from '../../errors';
import { LIMITS } from '../../lib/limits';

export type LabelRow = Selectable<LabelsTable>;

/** The colour GitLab 8.12 gave labels made on the fly (an issue's unknown label). */
export const DEFAULT_LABEL_COLOR = '#428BCA';

// 8.12's ColorValidator: `#` and three or six hex digits; colour names came later.
const COLOR = /^#(?:[0-9A-Fa-f]{3}){1,2}$/;

// A comma separates labels in an issue's `labels` parameter, so a title may not hold one.
const TITLE = /^[^,]+$/;

export const TITLE_TAKEN = 'has already been taken';

/** 8.12's Label validations for a title, in its order: presence, format, then (here) the column's length. */
export function checkTitle(validation: Validation, title: string): void {
  if (title.trim() === '') validation.add('title', "can't be blank");
  if (!TITLE.test(title)) validation.add('title', 'is invalid');
  if ([...title].length > LIMITS.name) validation.add('title', `is too long (maximum is ${LIMITS.name} characters)`);
}

/** 8.12 validated the colour before the title: its messages come first. */
export function checkColor(validation: Validation, color: string): void {
  if (!COLOR.test(color)) validation.add('color', 'must be a valid color code');
}
