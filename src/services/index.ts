import type { ServiceContext } from './context';
import { UsersService } from './users/users';
import { TemplatesService } from './templates/templates';
import { SystemHooksService } from './hooks/system-hooks';
import { KeysService } from './users/keys';
import { EmailsService } from './users/emails';
import { BroadcastMessagesService } from './broadcast-messages/broadcast-messages';
import { SettingsService } from './settings/settings';
import { EventsService } from './events/events';
import { ProjectsService } from './projects/projects';
import { GroupsService } from './groups/groups';
import { NamespacesService } from './namespaces/namespaces';
import { VariablesService } from './variables/variables';
import { ProjectHooksService } from './hooks/project-hooks';
import { MembersService } from './members/members';
import { AccessRequestsService } from './members/access-requests';
import { RepositoryStore } from './repository/repositories';
import { ProtectedBranchesService } from './repository/protected-branches';
import { DefaultBranchService } from './repository/default-branch';

/** Every service, built once per app over one context. */
export function createServices(ctx: ServiceContext) {
  const settings = new SettingsService(ctx);
  const events = new EventsService(ctx);
  const projects = new ProjectsService(ctx, settings, events);
  const repositories = new RepositoryStore(ctx);
  projects.repositories = repositories;
  const protectedBranches = new ProtectedBranchesService(ctx);
  const groups = new GroupsService(ctx, settings, projects);
  return {
    events,
    projects,
    repositories,
    protectedBranches,
    defaultBranch: new DefaultBranchService(ctx, settings, protectedBranches),
    groups,
    members: new MembersService(ctx, { projects, groups }, events),
    accessRequests: new AccessRequestsService(ctx, events),
    namespaces: new NamespacesService(ctx),
    ctx,
    users: new UsersService(ctx),
    templates: new TemplatesService(),
    systemHooks: new SystemHooksService(ctx),
    keys: new KeysService(ctx),
    emails: new EmailsService(ctx),
    broadcastMessages: new BroadcastMessagesService(ctx),
    settings,
    variables: new VariablesService(ctx),
    projectHooks: new ProjectHooksService(ctx),
  };
}

export type Services = ReturnType<typeof createServices>;
