import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { LicenseTemplate, Template, presentLicense, presentTemplate } from '../shared/entities/template';
import type { FileTemplate } from '../../services/templates/file-templates';
import { notFound } from '../../errors';
import { PageQuery, pageOfList } from './paging';

/** GitLab 11's `TemplatesList`: the key to ask for, and the name shown (the same here). */
const TemplateListItem = Type.Object({ key: Type.String(), name: Type.String() });
const TemplateName = Type.Object({ name: Type.String() });
const ListQuery = Type.Object(PageQuery);

/**
 * Templates under `/templates` (GitLab 11's `templates.rb`; v4 removed the top-level routes), open
 * to anyone. Lists are paginated. Forge ships no Dockerfile templates: that list is empty.
 */
export function templatesRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const templates = services.templates;
  const config = { access: 'public' } as const;

  api.get(
    '/templates/licenses',
    {
      config,
      schema: {
        // GitLab tests `popular.present?`: any non-blank value, even `false`, filters.
        querystring: Type.Object({ popular: Type.Optional(Type.String()), ...PageQuery }),
        response: { 200: Type.Array(LicenseTemplate) },
      },
    },
    async (request, reply) => {
      const popular = request.query.popular !== undefined && request.query.popular.trim() !== '';
      return pageOfList(request, reply, presenter, templates.licenses(popular).map(presentLicense));
    },
  );

  // The token is read only to default the copyright holder to the caller's name.
  api.get(
    '/templates/licenses/:name',
    {
      config: { access: 'optional' },
      schema: {
        params: TemplateName,
        querystring: Type.Object({ project: Type.Optional(Type.String()), fullname: Type.Optional(Type.String()) }),
        response: { 200: LicenseTemplate },
      },
    },
    async (request) => {
      const { project, fullname } = request.query;
      return presentLicense(templates.license(request.params.name, { project, fullname, callerName: request.user?.name }));
    },
  );

  const kinds: [path: string, list: () => readonly FileTemplate[], find: (name: string) => FileTemplate][] = [
    ['gitignores', () => templates.gitignores(), (name) => templates.gitignore(name)],
    ['gitlab_ci_ymls', () => templates.gitlabCiYmls(), (name) => templates.gitlabCiYml(name)],
    [
      'dockerfiles',
      () => [],
      () => {
        throw notFound('Dockerfile');
      },
    ],
  ];
  for (const [path, list, find] of kinds) {
    api.get(
      `/templates/${path}`,
      { config, schema: { querystring: ListQuery, response: { 200: Type.Array(TemplateListItem) } } },
      async (request, reply) =>
        pageOfList(
          request,
          reply,
          presenter,
          list().map((template) => ({ key: template.name, name: template.name })),
        ),
    );

    api.get(`/templates/${path}/:name`, { config, schema: { params: TemplateName, response: { 200: Template } } }, async (request) =>
      presentTemplate(find(request.params.name)),
    );
  }
}
