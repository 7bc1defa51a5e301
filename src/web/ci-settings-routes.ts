import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../services/index';
import type { Project } from '../services/projects/types';
import { PAGE, pageContext, sendPage, WebError } from './request';
import { projectFor, recordNumber, type ProjectParams } from './project-scope';
import { projectPath } from './paths';
import { fieldErrors } from './form-errors';
import { FormText, isDelete } from './settings-scope';
import { editVariablePage, triggersPage, type VariableValues, variablesPage } from './pages/settings/ci';
import { redirectWithNotice } from './flash';

const VariableBody = Type.Object({
  authenticity_token: FormText(),
  _method: FormText(10),
  key: FormText(255),
  value: FormText(100_000),
  protected: FormText(10),
  masked: FormText(10),
});
type VariableBody = Static<typeof VariableBody>;
const TriggerBody = Type.Object({ authenticity_token: FormText(), description: FormText(255) });
const TokenBody = Type.Object({ authenticity_token: FormText(), _method: FormText(10) });
type KeyParams = ProjectParams & { key: string };

const valuesOf = (body: VariableBody): VariableValues => ({
  key: body.key,
  value: body.value,
  protected: body.protected === '1',
  masked: body.masked === '1',
});

/**
 * `…/variables` and `…/triggers`: a project's build variables and pipeline triggers, through the
 * services of the API's `variables` and `triggers` routes, for those the API lets manage them
 * (`admin_build`: masters, with builds on); 404 to anyone else.
 */
export function ciSettingsRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  const managed = async (request: FastifyRequest<{ Params: ProjectParams }>) => {
    const user = request.web.user;
    if (!user) throw new WebError(404);
    return { ...(await projectFor(services, request, 'admin_build')), user };
  };
  const allVariables = async (project: Project) => (await services.variables.list(project.id, { offset: 0, limit: 1000 })).variables;

  pages.get<{ Params: ProjectParams }>('/:namespace/:project/variables', { config: PAGE }, async (request, reply) => {
    const { project } = await managed(request);
    return sendPage(
      request,
      reply,
      `Variables · ${project.name}`,
      variablesPage(pageContext(request), project, await allVariables(project)),
    );
  });

  pages.post<{ Params: ProjectParams; Body: VariableBody }>(
    '/:namespace/:project/variables',
    { config: PAGE, schema: { body: VariableBody } },
    async (request, reply) => {
      const { project } = await managed(request);
      const values = valuesOf(request.body);
      try {
        await services.variables.create(project.id, {
          key: values.key ?? '',
          value: values.value ?? '',
          protected: values.protected,
          masked: values.masked,
        });
      } catch (error) {
        const errors = fieldErrors(error);
        if (!errors) throw error;
        const page = variablesPage(pageContext(request), project, await allVariables(project), { ...values, errors });
        return sendPage(request, reply, `Variables · ${project.name}`, page, 400);
      }
      return redirectWithNotice(request, reply, `${projectPath(project)}/variables`, 'Variable was successfully created.');
    },
  );

  pages.get<{ Params: KeyParams }>('/:namespace/:project/variables/:key/edit', { config: PAGE }, async (request, reply) => {
    const { project } = await managed(request);
    const variable = await services.variables.find(project.id, request.params.key);
    return sendPage(request, reply, `Variable · ${project.name}`, editVariablePage(pageContext(request), project, variable.key, variable));
  });

  pages.post<{ Params: KeyParams; Body: VariableBody }>(
    '/:namespace/:project/variables/:key',
    { config: PAGE, schema: { body: VariableBody } },
    async (request, reply) => {
      const { project } = await managed(request);
      const { key } = request.params;
      if (isDelete(request.body)) await services.variables.delete(project.id, key);
      else {
        const values = valuesOf(request.body);
        try {
          await services.variables.update(project.id, key, {
            value: values.value ?? '',
            protected: values.protected,
            masked: values.masked,
          });
        } catch (error) {
          const errors = fieldErrors(error);
          if (!errors) throw error;
          return sendPage(
            request,
            reply,
            `Variable · ${project.name}`,
            editVariablePage(pageContext(request), project, key, values, errors),
            400,
          );
        }
      }
      return redirectWithNotice(
        request,
        reply,
        `${projectPath(project)}/variables`,
        isDelete(request.body) ? 'Variable was successfully removed.' : 'Variable was successfully updated.',
      );
    },
  );

  pages.get<{ Params: ProjectParams }>('/:namespace/:project/triggers', { config: PAGE }, async (request, reply) => {
    const { project, user } = await managed(request);
    const { triggers } = await services.triggers.list(project.id, { offset: 0, limit: 1000 });
    return sendPage(request, reply, `Triggers · ${project.name}`, triggersPage(pageContext(request), project, triggers, user.id));
  });

  pages.post<{ Params: ProjectParams; Body: Static<typeof TriggerBody> }>(
    '/:namespace/:project/triggers',
    { config: PAGE, schema: { body: TriggerBody } },
    async (request, reply) => {
      const { project, user } = await managed(request);
      await services.triggers.create(project.id, { description: request.body.description?.trim() || undefined, ownerId: user.id });
      return redirectWithNotice(request, reply, `${projectPath(project)}/triggers`, 'Trigger was created successfully.');
    },
  );

  pages.post<{ Params: ProjectParams & { trigger_id: string }; Body: Static<typeof TokenBody> }>(
    '/:namespace/:project/triggers/:trigger_id',
    { config: PAGE, schema: { body: TokenBody } },
    async (request, reply) => {
      const { project } = await managed(request);
      await services.triggers.deleteById(project.id, recordNumber(request.params.trigger_id));
      return redirectWithNotice(request, reply, `${projectPath(project)}/triggers`, 'Trigger removed.');
    },
  );
}
