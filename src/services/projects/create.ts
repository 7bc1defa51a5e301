import { Validation, grapeError } from '../../errors';
import { digestToken, randomHex } from '../../lib/secrets';
import { now } from '../../lib/time';
import { MASTER } from '../policy';
import type { User } from '../users/users';
import { isValidBranchName } from '../../git/ref-names';
import { emitSystemEvents, eventProject, projectEventData, projectMemberEventData } from '../hooks/system-events';
import { PROJECT_FLAGS, type ProjectAttributes } from './attributes';
import { countPersonalProjects } from '../users/personal-projects';
import type { ProjectDeps } from './deps';
import { hookOwnerOf } from './queries';
import { checkTaken } from './namespaces';
import { checkProjectName, checkProjectPath, checkVisibility, parameterize } from './rules';
import type { NamespaceRow, Project } from './types';
import { inTransaction } from '../../db/transaction';
import { linkForkLfsObjects } from '../lfs-objects/queries';

/**
 * Creates a project in `namespace` for `owner`, `actor` acting: validated as GitLab 8.12 does, its
 * row, the owner's membership, the event and the system hooks in one transaction; then its
 * repository (empty, a copy of `forkedFrom`'s, or an import queued in the transaction).
 */
export async function createProject(
  deps: ProjectDeps,
  actor: User,
  namespace: NamespaceRow,
  attributes: ProjectAttributes,
  owner: User,
  forkedFrom?: Project,
): Promise<Project> {
  const { ctx } = deps;
  const settings = await deps.settings.get();
  if (namespace.kind === 'user') await checkProjectLimit(deps, owner);
  const name = attributes.name;
  const path = attributes.path || (name ? parameterize(name) : undefined);
  const visibility = attributes.visibility_level ?? forkedFrom?.visibility_level ?? settings.default_project_visibility;
  const validation = new Validation();
  checkProjectName(validation, name);
  checkProjectPath(validation, path);
  checkVisibility(validation, actor, visibility, namespace, settings.restricted_visibility_levels, forkedFrom);
  if (attributes.default_branch !== undefined && !isValidBranchName(attributes.default_branch))
    validation.add('default_branch', 'is invalid');
  if (validation.ok) await checkTaken(ctx.db, validation, namespace.id, name!, path!, undefined);
  validation.throwIfInvalid();

  const time = now();
  const runnersToken = randomHex(30);
  const flags = Object.fromEntries(
    PROJECT_FLAGS.map((flag) => [flag, attributes[flag] === undefined ? undefined : attributes[flag] ? 1 : 0]).filter(
      ([, v]) => v !== undefined,
    ),
  );
  const project = await inTransaction(ctx.db, async (trx) => {
    const row = await trx
      .insertInto('projects')
      .values({
        namespace_id: namespace.id,
        name: name!,
        path: path!,
        description: attributes.description ?? forkedFrom?.description ?? null,
        default_branch: attributes.default_branch ?? forkedFrom?.default_branch ?? null,
        visibility_level: visibility,
        shared_runners_enabled: settings.shared_runners_enabled === false ? 0 : 1,
        ...flags,
        creator_id: actor.id,
        forked_from_project_id: forkedFrom?.id ?? null,
        import_url: attributes.import_url ?? null,
        import_status: attributes.import_url ? 'scheduled' : 'none',
        runners_token_digest: digestToken(runnersToken),
        runners_token_sealed: ctx.secrets.seal(runnersToken),
        last_activity_at: time,
        created_at: time,
        updated_at: time,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    // The creator of a personal project becomes its master (GitLab 8.12).
    if (namespace.kind === 'user') {
      await trx
        .insertInto('members')
        .values({
          source_type: 'Project',
          source_id: row.id,
          user_id: owner.id,
          access_level: MASTER,
          notification_level: 3,
          created_by_id: actor.id,
          created_at: time,
          updated_at: time,
        })
        .execute();
    }
    await deps.events.record(trx, { projectId: row.id, authorId: actor.id, action: 'created' });
    const full = { ...row, namespace };
    const owned = namespace.kind === 'user';
    await emitSystemEvents(ctx, trx, [
      { name: 'project_create', data: projectEventData(eventProject(full), (await hookOwnerOf(trx, full)) ?? { name: '' }) },
      // The creator of a personal project joined it as master (GitLab 8.12 announces that too).
      ...(owned
        ? [
            {
              name: 'user_add_to_team' as const,
              data: projectMemberEventData({ access_level: MASTER, created_at: time, updated_at: time }, eventProject(full), owner),
            },
          ]
        : []),
    ]);
    if (forkedFrom) await linkForkLfsObjects(trx, forkedFrom.id, row.id);
    if (attributes.import_url) await deps.repositories.scheduleImport(row.id, attributes.import_url, trx);
    return full;
  });
  if (namespace.kind === 'user') deps.personalProjectsChanged();
  if (!attributes.import_url) {
    if (forkedFrom) await deps.repositories.fork(forkedFrom.id, project.id);
    else await deps.repositories.create(project.id, project.default_branch ?? undefined);
  }
  return project;
}

async function checkProjectLimit(deps: ProjectDeps, owner: User): Promise<void> {
  if ((await countPersonalProjects(deps.ctx.db, owner.id)) < owner.projects_limit) return;
  const message =
    owner.projects_limit === 0
      ? 'Personal project creation is not allowed. Please contact your administrator with questions'
      : `Your project limit is ${owner.projects_limit} projects! Please contact your administrator to increase it`;
  // GitLab 8.12 answers this one with an `error` key holding an array.
  throw grapeError(403, [message]);
}
