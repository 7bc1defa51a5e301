import type { Validation } from '../../errors';
import { LIMITS } from '../../lib/limits';

/** GitLab 8.12's namespace path rule, shared by usernames and group paths. */
export const NAMESPACE_PATH = /^[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*$/;
export const NAMESPACE_PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.'.";

export const RESERVED_NAMES = new Set([
  'admin',
  'all',
  'assets',
  'ci',
  'dashboard',
  'files',
  'groups',
  'help',
  'hooks',
  'issues',
  'merge_requests',
  'new',
  'notes',
  'profile',
  'projects',
  'public',
  'repository',
  's',
  'search',
  'services',
  'snippets',
  'teams',
  'u',
  'unsubscribes',
  'users',
  'api',
  'uploads',
  '-',
]);

/** Devise's e-mail rule: something, an @, something, no spaces. */
const EMAIL = /^[^@\s]+@[^@\s]+$/;

export function checkNamespacePath(validation: Validation, field: string, value: string): void {
  if (!NAMESPACE_PATH.test(value) || value.endsWith('.') || value.endsWith('.git')) validation.add(field, NAMESPACE_PATH_MESSAGE);
  if (RESERVED_NAMES.has(value.toLowerCase())) validation.add(field, `${value} is a reserved name`);
  if (value.length > LIMITS.name) validation.add(field, `is too long (maximum is ${LIMITS.name} characters)`);
}

export function checkEmail(validation: Validation, field: string, value: string): void {
  if (!EMAIL.test(value)) validation.add(field, 'is invalid');
}

export function checkLength(validation: Validation, field: string, value: string | null | undefined, max: number = LIMITS.name): void {
  if (value && value.length > max) validation.add(field, `is too long (maximum is ${max} characters)`);
}

export function checkPassword(validation: Validation, value: string): void {
  if (value.length < 8) validation.add('password', 'is too short (minimum is 8 characters)');
  if (value.length > LIMITS.password) validation.add('password', `is too long (maximum is ${LIMITS.password} characters)`);
}
