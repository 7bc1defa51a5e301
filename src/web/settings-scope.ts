import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Services } from '../services/index';
import type { ProjectStanding } from '../services/policy';
import type { Project } from '../services/projects/types';
import type { User } from '../services/users/users';
import { projectFor, type ProjectParams } from './project-scope';
import { WebError } from './request';
import { fieldErrors, type FieldErrors } from './form-errors';

/**
 * The project of a settings page: only those who administer it (masters, owners, administrators:
 * the API's `admin_project`) find it; anyone else, signed in or not, gets the same 404 as for a
 * missing project.
 */
export async function administeredProject(
  services: Services,
  request: FastifyRequest<{ Params: ProjectParams }>,
): Promise<{ project: Project; standing: ProjectStanding; user: User }> {
  const user = request.web.user;
  if (!user) throw new WebError(404);
  const found = await projectFor(services, request, 'admin_project');
  return { ...found, user };
}

/** A form field's text, bounded so a huge value is the page's 400 rather than work. */
export const FormText = (maxLength = 1000) => Type.Optional(Type.String({ maxLength }));

/** Rails' `_method` of a form that stands for PATCH or DELETE. */
export const isDelete = (body: { _method?: string } | undefined) => body?._method?.toLowerCase() === 'delete';

/**
 * A service's refusal of a settings form, by field: GitLab's `"expires_at" is invalid` names its
 * field in quotes, and is shown beside it; anything else as `fieldErrors` says.
 */
export function settingsErrors(error: unknown): FieldErrors | undefined {
  const errors = fieldErrors(error);
  const match = errors?.base?.length === 1 ? /^"(\w+)" (.*)$/.exec(errors.base[0]!) : null;
  return match ? { [match[1]!]: [match[2]!] } : errors;
}
