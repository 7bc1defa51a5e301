import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { ApiError } from '../errors';
import { projectUrls } from '../lib/urls';
import { can, type ProjectStanding } from '../services/policy';
import type { Services } from '../services/index';
import type { Project } from '../services/projects/types';
import type { User } from '../services/users/users';
import { PAGE, sendPage } from './request';
import { html } from './html';
import { projectsPage } from './pages/listing';
import { userPage } from './pages/user';
import { projectPage, type ProjectHome } from './pages/project';
import type { Joining } from './pages/access-requests';
import { pickReadme, type ReadmeRenderer } from './readme';
import { projectPath } from './paths';
import { reservedNotFound } from './not-found-routes';

export interface BrowseDeps {
  services: Services;
  config: Config;
  readmes: ReadmeRenderer;
}

/** A page shows at most this many projects until lists are paged. */
const LIST_LIMIT = 100;

/**
 * First path segments that belong to other doors (the APIs, OAuth, health) or to the web door's
 * own fixed pages: a user, group or project page never answers for them, so `/api/v3` stays the
 * API's 404 and not a page.
 */
export const RESERVED = new Set([
  'api',
  'ci',
  'oauth',
  '-',
  'assets',
  'users',
  'u',
  'groups',
  'explore',
  'favicon.ico',
  'robots.txt',
  'profile',
  'admin',
  'search',
  'dashboard',
  'projects',
]);

/** The pages for reading: the dashboard, explore, users and a project's home (a group's are `group-routes.ts`). */
export function browseRoutes(pages: FastifyInstance, { services, config, readmes }: BrowseDeps): void {
  const list = (request: FastifyRequest, options: Parameters<Services['projects']['list']>[1]) =>
    services.projects.list(request.web.user, options).then((page) => page.projects);

  pages.get('/', { config: PAGE }, async (request, reply) => {
    const user = request.web.user;
    const projects = await list(request, {
      scope: user ? 'authorized' : 'visible',
      orderBy: 'last_activity_at',
      sort: 'desc',
      offset: 0,
      limit: LIST_LIMIT,
    });
    const heading = user ? 'Your projects' : 'Public projects';
    const empty = user ? 'You are not a member of any project yet.' : 'There are no public projects yet.';
    const actions =
      user &&
      html`<a class="button" href="/projects/new">New project</a>${user.can_create_group === 1 && html` <a class="button" href="/groups/new">New group</a>`}`;
    return sendPage(request, reply, heading, projectsPage(heading, projects, empty, actions || undefined));
  });

  pages.get('/explore/projects', { config: PAGE }, async (request, reply) => {
    const projects = await list(request, { scope: 'visible', orderBy: 'last_activity_at', sort: 'desc', offset: 0, limit: LIST_LIMIT });
    return sendPage(request, reply, 'Explore projects', projectsPage('Explore projects', projects, 'No projects to show.'));
  });

  const showUser = async (request: FastifyRequest<{ Params: { username: string } }>, reply: FastifyReply) => {
    const user = await services.users.findByIdOrUsername(request.params.username);
    if (!user || user.username.toLowerCase() !== request.params.username.toLowerCase()) {
      // GitLab's `/:namespace` is a user's page or a group's: a group a caller may read is sent on.
      const group = await services.groups.findReadable(request.params.username, request.web.user).catch(ignoreNotFound);
      if (group) return reply.redirect(`/groups/${encodeURIComponent(group.group.path)}`);
      throw new ApiError(404, { message: '404 User Not Found' });
    }
    const projects = await list(request, {
      scope: 'visible',
      ownerId: user.id,
      orderBy: 'last_activity_at',
      sort: 'desc',
      offset: 0,
      limit: LIST_LIMIT,
    });
    return sendPage(request, reply, user.name, userPage(user, projects));
  };
  pages.get<{ Params: { username: string } }>('/u/:username', { config: PAGE }, showUser);
  pages.get<{ Params: { username: string } }>('/:username', { config: PAGE }, async (request, reply) => {
    if (RESERVED.has(request.params.username.toLowerCase())) return reservedNotFound(request.params.username, reply);
    return showUser(request, reply);
  });

  pages.get<{ Params: { namespace: string; project: string } }>('/:namespace/:project', { config: PAGE }, async (request, reply) => {
    const { namespace, project: name } = request.params;
    if (RESERVED.has(namespace.toLowerCase())) return reservedNotFound(namespace, reply);
    // GitLab sends `/group/project.git` (a clone URL opened in a browser) to the project's page.
    if (name.endsWith('.git')) return reply.redirect(`/${encodeURIComponent(namespace)}/${encodeURIComponent(name.slice(0, -4))}`, 301);
    const { project, standing } = await services.projects.findReadable(`${namespace}/${name}`, request.web.user);
    // A path asked in other letters is sent to the project's own (a `find` ignoring case found it).
    const canonical = projectPath(project);
    if (canonical !== `/${namespace}/${name}`) return reply.redirect(canonical, 301);
    const home = await projectHome(services, config, readmes, project, can(standing, 'download_code'));
    home.mayPush = can(standing, 'push_code');
    home.mayAdmin = can(standing, 'admin_project');
    home.mayFork = request.web.user !== null && can(standing, 'fork_project');
    if (request.web.user) {
      const [starred, setting, joining] = await Promise.all([
        services.projects.hasStarred(project, request.web.user),
        services.notificationSettings.of(request.web.user.id, 'Project', project.id),
        joiningOf(services, project, standing, request.web.user, request.web.csrfToken),
      ]);
      home.star = { starred, count: project.star_count, csrfToken: request.web.csrfToken };
      home.notification = { level: setting.level, csrfToken: request.web.csrfToken };
      home.joining = joining;
    }
    return sendPage(request, reply, `${project.namespace.name} / ${project.name}`, projectPage(home));
  });
}

async function projectHome(
  services: Services,
  config: Config,
  readmes: ReadmeRenderer,
  project: Project,
  codeReadable: boolean,
): Promise<ProjectHome> {
  const urls = projectUrls(config, project);
  const home: ProjectHome = { project, urls, codeReadable };
  if (!codeReadable) return home;
  const ref = await services.repositoryReads.defaultRef(project);
  home.defaultRef = ref;
  const [commits, entries] = await Promise.all([
    services.commitReads.list(project, { ref, perPage: 1 }).catch(ignoreNotFound),
    services.repositoryReads.tree(project, { ref }).catch(ignoreNotFound),
  ]);
  home.lastCommit = commits?.[0];
  const readme = entries && pickReadme(entries);
  if (home.lastCommit && readme) home.readme = { name: readme.name, body: await readmes.render(project, home.lastCommit.id, ref, readme) };
  return home;
}

/** An empty repository (no default branch yet) is shown as empty, not as an error. */
function ignoreNotFound(error: unknown): undefined {
  if (error instanceof ApiError && error.status === 404) return undefined;
  throw error;
}

/**
 * Where a signed-in reader stands towards joining the project (GitLab 8.12's buttons): a member
 * may leave (not the owner of a personal project), one who is neither a member nor a member of its
 * group may ask or withdraw; members through the group get no button.
 */
async function joiningOf(
  services: Services,
  project: Project,
  standing: ProjectStanding,
  user: User,
  csrfToken: string,
): Promise<Joining | undefined> {
  if (standing.projectAccess !== null) {
    const personalOwner = project.namespace.kind === 'user' && project.namespace.owner_id === user.id;
    return personalOwner ? undefined : { member: true, pending: false, csrfToken };
  }
  if (standing.groupAccess !== null) return undefined;
  const pending = await services.accessRequests.pending(services.members.projectSource(project, standing), user);
  return { member: false, pending, csrfToken };
}
