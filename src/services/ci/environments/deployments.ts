import type { ServiceContext } from '../../context';
import type { Project } from '../../projects/types';
import type { User, UsersService } from '../../users/users';
import type { BuildsService } from '../builds/builds';
import { recordNotFound } from '../../../errors';
import { buildsOf, type BuildDetails } from '../builds/queries';
import type { DeploymentRow, EnvironmentRow } from '../types';

/** A deployment and what its answer shows: its environment, who deployed and the build that did. */
export interface DeploymentDetails {
  deployment: DeploymentRow;
  environment: EnvironmentRow;
  user: User | undefined;
  deployable: BuildDetails | undefined;
}

/** Reading a project's deployments. */
export class DeploymentsService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly builds: BuildsService,
    private readonly users: UsersService,
  ) {}

  /** Oldest first (8.12 gave no order: the database's, which is insertion order). */
  async list(project: Project, page: { offset: number; limit: number }): Promise<{ deployments: DeploymentDetails[]; total: number }> {
    const query = this.ctx.db.selectFrom('deployments').where('project_id', '=', project.id);
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('id').offset(page.offset).limit(page.limit).execute(),
      query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { deployments: await this.details(project, rows), total: Number(count.total) };
  }

  /** One deployment of the project by its id, or 8.12's `404 Not found`. */
  async find(project: Project, id: number): Promise<DeploymentDetails> {
    const row = await this.ctx.db
      .selectFrom('deployments')
      .selectAll()
      .where('id', '=', id)
      .where('project_id', '=', project.id)
      .executeTakeFirst();
    if (!row) throw recordNotFound();
    return (await this.details(project, [row]))[0];
  }

  /** Environments, users and builds (with their commits, users and runners) of a page, one batch each. */
  private async details(project: Project, rows: DeploymentRow[]): Promise<DeploymentDetails[]> {
    if (rows.length === 0) return [];
    const environmentIds = [...new Set(rows.map((row) => row.environment_id))];
    const buildIds = rows.flatMap((row) => (row.deployable_id === null ? [] : [row.deployable_id]));
    const [environments, users, builds] = await Promise.all([
      this.ctx.db.selectFrom('environments').selectAll().where('id', 'in', environmentIds).execute(),
      this.users.findMany(rows.flatMap((row) => (row.user_id === null ? [] : [row.user_id]))),
      buildIds.length ? buildsOf(this.ctx.db, project.id).where('ci_builds.id', 'in', buildIds).execute() : [],
    ]);
    const environmentById = new Map(environments.map((environment) => [environment.id, environment]));
    const buildById = new Map((await this.builds.details(project, builds)).map((details) => [details.build.id, details]));
    // A deployment whose environment was removed since the page was read went with it.
    return rows.flatMap((deployment) => {
      const environment = environmentById.get(deployment.environment_id);
      if (!environment) return [];
      const user = deployment.user_id === null ? undefined : users.get(deployment.user_id);
      const deployable = deployment.deployable_id === null ? undefined : buildById.get(deployment.deployable_id);
      return [{ deployment, environment, user, deployable }];
    });
  }
}
