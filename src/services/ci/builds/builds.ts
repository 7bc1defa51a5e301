import { Readable } from 'node:stream';
import type { ServiceContext } from '../../context';
import type { Project } from '../../projects/types';
import type { UsersService } from '../../users/users';
import { notFound, recordNotFound } from '../../../errors';
import { readCommits, resolveCommitId } from '../../../git/commits';
import { repositoryPath } from '../../../git/paths';
import { artifactsKey } from './files';
import { BuildTraces } from './traces';
import { toInteger } from '../../../lib/to-integer';
import { MAX_RECORD_ID } from '../../../lib/record-id';
import { buildsOf, type BuildDetails } from './queries';
import { hasArtifacts, parseScope } from './rules';
import type { BuildRecord } from '../types';

export interface StoredFile {
  body: Readable;
  size: number;
  /** The name the file is served under. */
  fileName: string;
}

/** Reading a project's builds: lists, one build, what each shows, its trace and its artifacts. */
export class BuildsService {
  /** Every build's trace: read here, written by the runner API's service, which is handed this one. */
  readonly traces: BuildTraces;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly users: UsersService,
  ) {
    this.traces = new BuildTraces(ctx);
  }

  /** The project's builds, newest first, narrowed to the statuses of `scope`. */
  async list(
    project: Project,
    scope: string | string[] | undefined,
    page: { offset: number; limit: number },
  ): Promise<{ builds: BuildRecord[]; total: number }> {
    return this.page(project, parseScope(scope), page);
  }

  /**
   * The builds of every pipeline of the commit `sha` names, newest first. An unknown commit is 404;
   * a commit without pipelines has none. The commit's full sha is used, so a branch name or a
   * short sha finds the builds too (8.12 matched the text given and listed nothing for them).
   */
  async listForCommit(
    project: Project,
    sha: string,
    scope: string | string[] | undefined,
    page: { offset: number; limit: number },
  ): Promise<{ builds: BuildRecord[]; total: number }> {
    const commitId = await resolveCommitId(this.ctx.git, repositoryPath(this.ctx.config.dataDir, project.id), sha);
    if (!commitId) throw notFound();
    return this.page(project, parseScope(scope), page, commitId);
  }

  /** The builds of one of the project's pipelines, newest first (404 for a pipeline it does not have). */
  async listForPipeline(
    project: Project,
    pipelineId: number,
    scope: string | string[] | undefined,
    page: { offset: number; limit: number },
  ): Promise<{ builds: BuildRecord[]; total: number }> {
    const statuses = parseScope(scope);
    const pipeline = await this.ctx.db
      .selectFrom('ci_pipelines')
      .select('id')
      .where('project_id', '=', project.id)
      .where('id', '=', pipelineId)
      .executeTakeFirst();
    if (!pipeline) throw notFound('Pipeline');
    return this.page(project, statuses, page, undefined, pipeline.id);
  }

  private async page(
    project: Project,
    statuses: string[] | undefined,
    page: { offset: number; limit: number },
    sha?: string,
    pipelineId?: number,
  ) {
    let query = buildsOf(this.ctx.db, project.id);
    if (statuses) query = query.where('ci_builds.status', 'in', statuses);
    if (sha) query = query.where('ci_pipelines.sha', '=', sha);
    if (pipelineId !== undefined) query = query.where('ci_builds.pipeline_id', '=', pipelineId);
    const [builds, count] = await Promise.all([
      query.orderBy('ci_builds.id', 'desc').offset(page.offset).limit(page.limit).execute(),
      query
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow(),
    ]);
    return { builds, total: Number(count.total) };
  }

  /** One build of the project, by its id as a client wrote it (8.12's `to_i`), or `404 Not Found`. */
  async find(project: Project, buildId: number | string): Promise<BuildRecord> {
    const id = toInteger(buildId);
    if (id === undefined || id < 1 || id > MAX_RECORD_ID) throw notFound();
    const build = await buildsOf(this.ctx.db, project.id).where('ci_builds.id', '=', id).executeTakeFirst();
    if (!build) throw notFound();
    return build;
  }

  /** The commit, user, runner and pipeline of each build, read in one batch each (one git exchange for the commits). */
  async details(project: Project, builds: BuildRecord[]): Promise<BuildDetails[]> {
    const shas = [...new Set(builds.map((build) => build.sha))];
    const userIds = builds.flatMap((build) => (build.user_id === null ? [] : [build.user_id]));
    const runnerIds = [...new Set(builds.flatMap((build) => (build.runner_id === null ? [] : [build.runner_id])))];
    const pipelineIds = [...new Set(builds.map((build) => build.pipeline_id))];
    const [commits, users, runners, pipelines] = await Promise.all([
      shas.length ? readCommits(this.ctx.git, repositoryPath(this.ctx.config.dataDir, project.id), shas) : [],
      this.users.findMany(userIds),
      runnerIds.length ? this.ctx.db.selectFrom('ci_runners').selectAll().where('id', 'in', runnerIds).execute() : [],
      pipelineIds.length
        ? this.ctx.db.selectFrom('ci_pipelines').select(['id', 'ref', 'sha', 'status']).where('id', 'in', pipelineIds).execute()
        : [],
    ]);
    const commitById = new Map(commits.map((commit) => [commit.id, commit]));
    const runnerById = new Map(runners.map((runner) => [runner.id, runner]));
    const pipelineById = new Map(pipelines.map((pipeline) => [pipeline.id, pipeline]));
    return builds.map((build) => ({
      build,
      commit: commitById.get(build.sha),
      user: build.user_id === null ? undefined : users.get(build.user_id),
      runner: build.runner_id === null ? undefined : runnerById.get(build.runner_id),
      pipeline: pipelineById.get(build.pipeline_id),
    }));
  }

  /** The build's artifacts archive; 404 when it has none, or they expired. */
  async artifacts(project: Project, buildId: number | string): Promise<StoredFile> {
    return this.artifactsOf(await this.find(project, buildId), notFound);
  }

  /**
   * The artifacts of the latest build named `job` in the latest successful pipeline for `ref`
   * (8.10's download by ref). No such pipeline, build or artifacts is 8.12's `404 Not found`.
   */
  async artifactsForRef(project: Project, ref: string, job: string | undefined): Promise<StoredFile> {
    if (!job) throw recordNotFound();
    const pipeline = await this.ctx.db
      .selectFrom('ci_pipelines')
      .select('id')
      .where('project_id', '=', project.id)
      .where('ref', '=', ref)
      .where('status', '=', 'success')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!pipeline) throw recordNotFound();
    // The newest build of that name is the latest; an older try's artifacts are not served.
    const build = await buildsOf(this.ctx.db, project.id)
      .where('ci_builds.pipeline_id', '=', pipeline.id)
      .where('ci_builds.name', '=', job)
      .orderBy('ci_builds.id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!build) throw recordNotFound();
    return this.artifactsOf(build, recordNotFound);
  }

  private async artifactsOf(build: BuildRecord, missing: () => Error): Promise<StoredFile> {
    if (!hasArtifacts(build)) throw missing();
    const file = await this.open(artifactsKey(build));
    if (!file) throw missing();
    return { ...file, fileName: build.artifacts_file! };
  }

  /**
   * The build's trace, while it runs and after, masked again (a token split across two parts was
   * not masked as they were written). A build with none (it never ran, was skipped or canceled
   * before it printed, or was erased) has an empty one, 200 as 8.12 answered it: a 404 would say
   * the build does not exist. A build canceled while running keeps what its runner had sent.
   */
  async trace(project: Project, buildId: number | string): Promise<StoredFile> {
    const build = await this.find(project, buildId);
    const trace = (await this.traces.read(build)) ?? Buffer.alloc(0);
    return { body: Readable.from([trace]), size: trace.length, fileName: `${build.id}.log` };
  }

  /** The whole file, read up to the size it had when looked at (a running build's trace grows meanwhile). */
  private async open(key: string): Promise<{ body: Readable; size: number } | undefined> {
    const stat = await this.ctx.files.stat(key);
    if (!stat) return undefined;
    const body = await this.ctx.files.read(key, { start: 0, end: stat.size });
    return body && { body, size: stat.size };
  }
}
