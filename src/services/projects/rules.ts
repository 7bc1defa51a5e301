import type { Validation } from '../../errors';
import { LIMITS } from '../../lib/limits';
import { INTERNAL, PRIVATE, PUBLIC, mayUseRestrictedVisibility, visibilityName, type Caller } from '../policy';
import type { NamespaceRow, ProjectRow } from './types';

const NAME = /^[\p{L}\p{N}_][\p{L}\p{N}\p{Pd}_. ]*$/u;
const PATH = /^[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*$/;

export const NAME_MESSAGE = "can contain only letters, digits, '_', '.', dash and space. It must start with letter, digit or '_'.";
export const PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";

export function checkProjectName(validation: Validation, name: string | undefined): void {
  if (name === undefined || name.trim() === '') {
    validation.add('name', "can't be blank");
    validation.add('name', 'is too short (minimum is 0 characters)');
    validation.add('name', NAME_MESSAGE);
    return;
  }
  if (!NAME.test(name)) validation.add('name', NAME_MESSAGE);
  if (name.length > LIMITS.name) validation.add('name', `is too long (maximum is ${LIMITS.name} characters)`);
}

export function checkProjectPath(validation: Validation, path: string | undefined): void {
  if (path === undefined || path.trim() === '') {
    validation.add('path', "can't be blank");
    validation.add('path', 'is too short (minimum is 0 characters)');
    validation.add('path', PATH_MESSAGE);
    return;
  }
  if (!PATH.test(path) || path.endsWith('.git') || path.endsWith('.atom')) validation.add('path', PATH_MESSAGE);
  if (path.length > LIMITS.name) validation.add('path', `is too long (maximum is ${LIMITS.name} characters)`);
}

/** Rails' `parameterize`: the default path of a project named `name`. */
export function parameterize(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-zA-Z0-9\-_]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
}

/** GitLab's visibility validations: a known level, not restricted (but for admins), not above the group's or the fork source's. */
export function checkVisibility(
  validation: Validation,
  actor: Caller,
  level: number,
  namespace: NamespaceRow,
  restricted: number[],
  forkedFrom?: ProjectRow,
): void {
  if (![PRIVATE, INTERNAL, PUBLIC].includes(level)) {
    validation.add('visibility_level', 'is not included in the list');
    return;
  }
  if (!mayUseRestrictedVisibility(actor) && restricted.includes(level)) {
    validation.add('visibility_level', `${visibilityName(level)} has been restricted by your GitLab administrator`);
  }
  if (namespace.kind === 'group' && level > namespace.visibility_level) {
    validation.add('visibility_level', `${visibilityName(level)} is not allowed in a ${visibilityName(namespace.visibility_level)} group.`);
  }
  if (forkedFrom && level > forkedFrom.visibility_level) {
    validation.add('visibility_level', `${visibilityName(level)} is not allowed since the fork source project has lower visibility.`);
  }
}
