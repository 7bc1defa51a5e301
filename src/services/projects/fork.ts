import { ApiError, conflict, type ValidationMessages } from '../../errors';
import { can, type ProjectStanding } from '../policy';
import type { User } from '../users/users';
import { createProject } from './create';
import type { ProjectDeps } from './deps';
import { forkTarget } from './namespaces';
import type { Project } from './types';

/** Forks into the caller's namespace or a given one (id or path) they may create projects in. */
export async function forkProject(
  deps: ProjectDeps,
  source: Project,
  standing: ProjectStanding,
  caller: User,
  namespaceRef?: string,
): Promise<Project> {
  // GitLab 8.12.x (a security release after 8.12.0, which did not check) refuses a caller who may
  // not download the code in its fork service, as a validation error of the new project.
  if (!can(standing, 'fork_project')) throw conflict({ forked_from_project_id: ['is forbidden'] });
  const db = deps.ctx.db;
  const namespace = await forkTarget(db, caller, namespaceRef);
  const owner =
    namespace.kind === 'user'
      ? await db.selectFrom('users').selectAll().where('id', '=', namespace.owner_id!).executeTakeFirstOrThrow()
      : caller;
  try {
    return await createProject(deps, caller, namespace, { name: source.name, path: source.path }, owner, source);
  } catch (error) {
    // GitLab answers a fork that cannot be saved with 409 and the validation messages.
    if (error instanceof ApiError && error.status === 400) throw conflict((error.body as { message: ValidationMessages }).message);
    throw error;
  }
}
