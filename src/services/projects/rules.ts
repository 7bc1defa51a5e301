import type { Validation } from '../../errors';

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
  if (name.length > 255) validation.add('name', 'is too long (maximum is 255 characters)');
}

export function checkProjectPath(validation: Validation, path: string | undefined): void {
  if (path === undefined || path.trim() === '') {
    validation.add('path', "can't be blank");
    validation.add('path', 'is too short (minimum is 0 characters)');
    validation.add('path', PATH_MESSAGE);
    return;
  }
  if (!PATH.test(path) || path.endsWith('.git') || path.endsWith('.atom')) validation.add('path', PATH_MESSAGE);
  if (path.length > 255) validation.add('path', 'is too long (maximum is 255 characters)');
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
