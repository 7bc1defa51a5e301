import type { Validation } from '../../errors';
import { LIMITS } from '../../lib/limits';
import { INTERNAL, PRIVATE, PUBLIC, visibilityName } from '../policy';
import { checkNamespacePath } from '../users/rules';

/** GitLab 8.12's `namespace_name_regex`: any mix of letters, digits, dashes, '_', '.' and spaces. */
const GROUP_NAME = /^[\p{L}\p{M}\p{N}\p{Pd}_. ]*$/u;
export const GROUP_NAME_MESSAGE = "can contain only letters, digits, '_', '.', dash and space.";

export const VISIBILITY_LEVELS = [PRIVATE, INTERNAL, PUBLIC];

export function checkGroupName(validation: Validation, name: string): void {
  if (name.trim() === '') validation.add('name', "can't be blank");
  if (name.length > LIMITS.name) validation.add('name', `is too long (maximum is ${LIMITS.name} characters)`);
  if (!GROUP_NAME.test(name)) validation.add('name', GROUP_NAME_MESSAGE);
}

export function checkGroupDescription(validation: Validation, description: string | undefined): void {
  if (description !== undefined && description.length > LIMITS.groupDescription) {
    validation.add('description', `is too long (maximum is ${LIMITS.groupDescription} characters)`);
  }
}

export function checkGroupPath(validation: Validation, path: string): void {
  checkNamespacePath(validation, 'path', path);
}

/** A level is one of 0/10/20, and a restricted one is for administrators only. */
export function checkGroupVisibility(validation: Validation, level: number, restricted: number[], mayUseRestricted: boolean): void {
  if (!VISIBILITY_LEVELS.includes(level)) {
    validation.add('visibility_level', 'is not included in the list');
    return;
  }
  if (!mayUseRestricted && restricted.includes(level)) {
    validation.add('visibility_level', `${visibilityName(level)} has been restricted by your GitLab administrator`);
  }
}
