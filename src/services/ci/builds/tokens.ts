import type { ServiceContext } from '../../context';
import { digestToken, randomToken, type SecretBox } from '../../../lib/secrets';
import type { BuildRow } from '../types';

/**
 * A new build's token as its row keeps it: a digest to find the build by, and sealed, because
 * the build's dependants are handed it to fetch its artifacts (GitLab's 20-character token).
 */
export function newBuildToken(secrets: SecretBox): { token_digest: string; token_sealed: string } {
  const token = randomToken(20);
  return { token_digest: digestToken(token), token_sealed: secrets.seal(token) };
}

/** The token of a build, from its sealed copy (builds made before tokens were sealed have none to show). */
export function buildToken(ctx: ServiceContext, build: Pick<BuildRow, 'token_sealed'>): string {
  return build.token_sealed ? ctx.secrets.unseal(build.token_sealed) : '';
}

/** The running build a token belongs to: its project, and the user it runs for (none for a trigger's). */
export interface RunningBuild {
  projectId: number;
  userId: number | null;
}

/**
 * A build's token (`CI_JOB_TOKEN`), valid while the build runs and refused once it finished: it lets
 * the build fetch repositories (`gitlab-ci-token`) and read artifacts as the user it runs for.
 */
export class BuildTokensService {
  constructor(private readonly ctx: ServiceContext) {}

  /** The running build holding this token, or undefined. Looked up by digest: the table never holds the token. */
  async runningBuild(token: string): Promise<RunningBuild | undefined> {
    const build = await this.ctx.db
      .selectFrom('ci_builds')
      .select(['project_id', 'user_id'])
      .where('token_digest', '=', digestToken(token))
      .where('status', '=', 'running')
      .executeTakeFirst();
    return build && { projectId: build.project_id, userId: build.user_id };
  }
}
