import type { ServiceContext } from '../context';
import { digestToken } from '../../lib/secrets';

/** A build's token, valid while the build runs: it lets the build fetch its own project's repository (`gitlab-ci-token`). */
export class BuildTokensService {
  constructor(private readonly ctx: ServiceContext) {}

  /** The project of the running build holding this token, or undefined. Looked up by digest: the table never holds the token. */
  async projectOfRunningBuild(token: string): Promise<number | undefined> {
    const build = await this.ctx.db
      .selectFrom('ci_builds')
      .select('project_id')
      .where('token_digest', '=', digestToken(token))
      .where('status', '=', 'running')
      .executeTakeFirst();
    return build?.project_id;
  }
}
