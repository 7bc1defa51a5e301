import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services/index';
import { can, type ProjectStanding } from '../services/policy';
import type { ProjectAttributes } from '../services/projects/attributes';
import type { Project } from '../services/projects/types';
import type { User } from '../services/users/users';
import { PAGE, pageContext, sendPage, WebError } from './request';
import type { ProjectParams } from './project-scope';
import { projectPath } from './paths';
import { fieldErrors } from './form-errors';
import { administeredProject, FormText, isDelete } from './settings-scope';
import { FEATURES, type FeatureName, type GeneralSettings, generalSettingsPage, projectValues } from './pages/settings/general';
import { redirectWithNotice } from './flash';

const Flag = FormText(10);
const UpdateBody = Type.Object({
  authenticity_token: FormText(),
  _method: FormText(10),
  section: FormText(20),
  description: FormText(100_000),
  default_branch: FormText(255),
  visibility_level: FormText(10),
  name: FormText(255),
  path: FormText(255),
  confirm_path: FormText(255),
  ...(Object.fromEntries(FEATURES.map(([flag]) => [flag, Flag])) as Record<FeatureName, typeof Flag>),
});
type UpdateBody = Static<typeof UpdateBody>;
const TokenBody = Type.Object({ authenticity_token: FormText() });
const TransferBody = Type.Object({ authenticity_token: FormText(), new_namespace_id: FormText(20) });

/**
 * A project's general settings (GitLab 8.12's `edit`, `update`, `archive`, `unarchive`,
 * `transfer` and `destroy`), each write through the call the API's projects routes make.
 */
export function settingsRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  type Refused = GeneralSettings['refused'];

  async function showEdit(
    request: FastifyRequest,
    reply: FastifyReply,
    found: { project: Project; standing: ProjectStanding; user: User },
    typed: { general?: GeneralSettings['general']; rename?: GeneralSettings['rename']; refused?: Refused } = {},
  ) {
    const { project, standing, user } = found;
    const mayTransfer = can(standing, 'change_namespace');
    const [refs, namespaces] = await Promise.all([
      services.repositoryBrowse.refNames(project),
      mayTransfer ? services.projects.creatableNamespaces(user) : Promise.resolve([]),
    ]);
    const settings: GeneralSettings = {
      project,
      branches: refs.branches,
      mayChangeVisibility: can(standing, 'change_visibility_level'),
      mayRename: can(standing, 'rename_project'),
      mayArchive: can(standing, 'archive_project'),
      mayTransfer,
      mayRemove: can(standing, 'remove_project'),
      namespaces,
      general: typed.general ?? projectValues(project),
      rename: typed.rename ?? {},
      refused: typed.refused,
    };
    const status = typed.refused ? 400 : 200;
    return sendPage(request, reply, `Settings · ${project.name}`, generalSettingsPage(pageContext(request), settings), status);
  }

  pages.get<{ Params: ProjectParams }>('/:namespace/:project/edit', { config: PAGE }, async (request, reply) =>
    showEdit(request, reply, await administeredProject(services, request)),
  );

  /** The general form: its fields, a feature unchecked is off (the form always shows them all). */
  function generalAttributes(body: UpdateBody, mayChangeVisibility: boolean): ProjectAttributes {
    const attributes: ProjectAttributes = { description: body.description ?? '' };
    if (body.default_branch) attributes.default_branch = body.default_branch;
    if (mayChangeVisibility && body.visibility_level !== undefined) {
      if (!/^(0|10|20)$/.test(body.visibility_level)) throw new WebError(400, 'Unknown visibility level');
      attributes.visibility_level = Number(body.visibility_level);
    }
    for (const [flag] of FEATURES) attributes[flag] = body[flag] === '1';
    return attributes;
  }

  // Rails' `PATCH` and `DELETE /:namespace/:project`, sent by forms as a POST with `_method`; to the edit
  // page's own path, since a POST on every two-segment path would take the API's own 404s (`POST /api/v3`).
  pages.post<{ Params: ProjectParams; Body: UpdateBody }>(
    '/:namespace/:project/edit',
    { config: PAGE, schema: { body: UpdateBody } },
    async (request, reply) => {
      const found = await administeredProject(services, request);
      const { project, standing, user } = found;
      const { body } = request;
      if (isDelete(body)) {
        if ((body.confirm_path ?? '').trim() !== project.path) {
          return showEdit(request, reply, found, {
            refused: { section: 'remove', errors: { confirm_path: ['does not match the project path'] } },
          });
        }
        await services.projects.remove(project, standing);
        return redirectWithNotice(request, reply, '/', `Project '${project.name}' will be deleted.`);
      }
      const renaming = body.section === 'rename';
      const attributes = renaming
        ? { name: (body.name ?? '').trim(), path: (body.path ?? '').trim() }
        : generalAttributes(body, can(standing, 'change_visibility_level'));
      try {
        const updated = await services.projects.update(project, standing, user, attributes);
        return redirectWithNotice(request, reply, `${projectPath(updated)}/edit`, `Project '${updated.name}' was successfully updated.`);
      } catch (error) {
        const errors = fieldErrors(error);
        if (!errors) throw error;
        if (renaming) return showEdit(request, reply, found, { rename: attributes, refused: { section: 'rename', errors } });
        const general = {
          description: body.description,
          defaultBranch: body.default_branch,
          visibilityLevel: body.visibility_level ?? String(project.visibility_level),
          features: Object.fromEntries(FEATURES.map(([flag]) => [flag, body[flag] === '1'])) as Record<FeatureName, boolean>,
        };
        return showEdit(request, reply, found, { general, refused: { section: 'general', errors } });
      }
    },
  );

  for (const [action, archived] of [
    ['archive', true],
    ['unarchive', false],
  ] as const) {
    pages.post<{ Params: ProjectParams; Body: Static<typeof TokenBody> }>(
      `/:namespace/:project/${action}`,
      { config: PAGE, schema: { body: TokenBody } },
      async (request, reply) => {
        const { project, standing } = await administeredProject(services, request);
        await services.projects.setArchived(project, standing, archived);
        const notice = `Project '${project.name}' was successfully ${archived ? 'archived' : 'unarchived'}.`;
        return redirectWithNotice(request, reply, `${projectPath(project)}/edit`, notice);
      },
    );
  }

  pages.post<{ Params: ProjectParams; Body: Static<typeof TransferBody> }>(
    '/:namespace/:project/transfer',
    { config: PAGE, schema: { body: TransferBody } },
    async (request, reply) => {
      const found = await administeredProject(services, request);
      const { project, standing, user } = found;
      const namespaceId = /^\d{1,9}$/.test(request.body.new_namespace_id ?? '') ? Number(request.body.new_namespace_id) : 0;
      try {
        const moved = await services.projects.transferTo(project, standing, user, namespaceId);
        return redirectWithNotice(request, reply, `${projectPath(moved)}/edit`, `Project '${moved.name}' was successfully transferred.`);
      } catch (error) {
        const errors = fieldErrors(error);
        if (!errors) throw error;
        return showEdit(request, reply, found, { refused: { section: 'transfer', errors } });
      }
    },
  );
}
