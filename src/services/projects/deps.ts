import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import type { EventsService } from '../events/events';
import type { SettingsReader } from '../settings-reader';

/** Hooks the repository layer plugs into: creating, copying and removing a project's repository. */
export interface RepositoryLifecycle {
  create(projectId: number, headBranch?: string): Promise<void>;
  fork(fromProjectId: number, toProjectId: number): Promise<void>;
  scheduleImport(projectId: number, url: string, executor: Db): Promise<void>;
  scheduleRemoval(projectId: number, executor: Db): Promise<void>;
}

/** What the project operations are given by `ProjectsService`. */
export interface ProjectDeps {
  ctx: ServiceContext;
  settings: SettingsReader;
  events: EventsService;
  repositories: RepositoryLifecycle;
  /** Called once a change to a personal namespace's projects is committed (users remember their counts). */
  personalProjectsChanged(): void;
}
