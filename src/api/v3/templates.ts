import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import {
  LicenseTemplate,
  Template,
  TemplateListItem,
  presentLicense,
  presentTemplate,
  presentTemplateListItem,
} from '../shared/entities/template';

const TemplateName = Type.Object({ name: Type.String() });

/** License, gitignore and `.gitlab-ci.yml` templates: no token needed. */
export function templatesRoutes(api: Api, { services }: RouteDeps): void {
  const templates = services.templates;

  api.get(
    '/licenses',
    {
      config: { access: 'public' },
      schema: {
        // GitLab tests `popular.present?`: any non-blank value, even `false`, filters.
        querystring: Type.Object({ popular: Type.Optional(Type.String()) }),
        response: { 200: Type.Array(LicenseTemplate) },
      },
    },
    async (request) => {
      const popular = request.query.popular !== undefined && request.query.popular.trim() !== '';
      return templates.licenses(popular).map(presentLicense);
    },
  );

  // The token is read only to default the copyright holder to the caller's name.
  api.get(
    '/licenses/:key',
    {
      config: { access: 'optional' },
      schema: {
        params: Type.Object({ key: Type.String() }),
        querystring: Type.Object({ project: Type.Optional(Type.String()), fullname: Type.Optional(Type.String()) }),
        response: { 200: LicenseTemplate },
      },
    },
    async (request) => {
      const { project, fullname } = request.query;
      return presentLicense(templates.license(request.params.key, { project, fullname, callerName: request.user?.name }));
    },
  );

  api.get(
    '/gitignores',
    {
      config: { access: 'public' },
      schema: { response: { 200: Type.Array(TemplateListItem) } },
    },
    async () => templates.gitignores().map(presentTemplateListItem),
  );

  api.get(
    '/gitignores/:name',
    {
      config: { access: 'public' },
      schema: { params: TemplateName, response: { 200: Template } },
    },
    async (request) => presentTemplate(templates.gitignore(request.params.name)),
  );

  api.get(
    '/gitlab_ci_ymls',
    {
      config: { access: 'public' },
      schema: { response: { 200: Type.Array(TemplateListItem) } },
    },
    async () => templates.gitlabCiYmls().map(presentTemplateListItem),
  );

  api.get(
    '/gitlab_ci_ymls/:name',
    {
      config: { access: 'public' },
      schema: { params: TemplateName, response: { 200: Template } },
    },
    async (request) => presentTemplate(templates.gitlabCiYml(request.params.name)),
  );
}
