import type { ProjectsService } from '../projects/projects';
import type { Project } from '../projects/types';
import type { User, UsersService } from '../users/users';
import type { BuildTokensService } from '../ci/builds/tokens';
import { can } from '../policy';
import { CredentialCache } from '../users/credential-cache';
import { PUSH_REFUSALS, type PushRulesService, type PushVerdict } from './push-rules';
import type { PushesService } from './pushes';
import type { RefUpdate } from '../../git/ref-update';
import type { DeployKeysService } from '../deploy-keys/deploy-keys';
import type { KeysService } from '../users/keys';
import type { AccessTokensService } from '../access-tokens/access-tokens';
import { gitAbility } from '../access-tokens/scopes';

/**
 * A person, a running build fetching with `gitlab-ci-token` (its own project, and what the user it
 * runs for may fetch), or a deploy key (over SSH) fetching the projects it is enabled on.
 */
export type GitCaller =
  /** `readOnly`: a token whose scopes allow fetching only (`read_repository`). */
  | { kind: 'user'; user: User; readOnly?: boolean }
  | { kind: 'build'; projectId: number; userId: number | null }
  | { kind: 'deploy_key'; keyId: number };

/** What git's clients are told when refused before git runs (GitLab 8.12's `GitAccess` messages). */
export const GIT_ACCESS_REFUSALS = {
  notFound: 'The project you were looking for could not be found.',
  download: 'You are not allowed to download code from this project.',
  push: PUSH_REFUSALS.push,
  deployKeyPush: 'Deploy keys are not allowed to push code.',
  blocked: 'Your account has been blocked.',
  unknownKey: 'The key you are using is not known to this server.',
} as const;

/**
 * `unauthorized`: ask for credentials; `not_found`: hide the project; `forbidden`: the caller may
 * see the project but not do this.
 */
export type GitAccessAnswer = 'ok' | 'unauthorized' | 'not_found' | 'forbidden';

/** What a client refused before git runs is told (over SSH; HTTP answers with a status). */
export function accessRefusal(caller: GitCaller, answer: GitAccessAnswer, action: 'read' | 'write'): string | undefined {
  if (answer === 'ok') return undefined;
  if (answer !== 'forbidden') return GIT_ACCESS_REFUSALS.notFound;
  if (action === 'read') return GIT_ACCESS_REFUSALS.download;
  return caller.kind === 'deploy_key' ? GIT_ACCESS_REFUSALS.deployKeyPush : GIT_ACCESS_REFUSALS.push;
}

/** Who may fetch from and push to a repository, for git's transports (smart HTTP now, SSH later). */
export class GitAccessService {
  private readonly credentials = new CredentialCache();

  constructor(
    private readonly users: UsersService,
    private readonly projects: ProjectsService,
    private readonly buildTokens: BuildTokensService,
    private readonly pushRules: PushRulesService,
    private readonly pushes: PushesService,
    private readonly deployKeys: DeployKeysService,
    private readonly keys: KeysService,
    private readonly accessTokens: AccessTokensService,
  ) {}

  /** The project at `namespace/path`, or undefined. */
  findProject(fullPath: string): Promise<Project | undefined> {
    return this.projects.find(fullPath);
  }

  /**
   * HTTP Basic credentials: a login with its password or private token, `gitlab-ci-token` with a
   * running build's token, or any login with a personal access token (`oauth2` with an OAuth2
   * token, as GitLab) whose scopes allow git: `read_repository` fetches, `write_repository` or
   * `api` also pushes. A revoked or expired token is refused like a wrong password. Tokens are
   * looked up on every request, never remembered: a revocation counts at once.
   */
  async authenticate(login: string, secret: string): Promise<GitCaller | undefined> {
    if (login === 'gitlab-ci-token') {
      const build = await this.buildTokens.runningBuild(secret);
      return build && { kind: 'build', ...build };
    }
    const key = this.credentials.key(login, secret);
    const cachedId = this.credentials.get(key);
    if (cachedId !== undefined) {
      const user = await this.users.findById(cachedId);
      if (user?.state === 'active') return { kind: 'user', user };
    }
    // After the cache (which holds passwords and private tokens only), before the slow password check.
    const byToken = await this.accessTokens.resolve(secret);
    if (byToken !== undefined) {
      if (!('user' in byToken)) return undefined;
      const ability = gitAbility(byToken.scopes);
      return ability === undefined ? undefined : { kind: 'user', user: byToken.user, readOnly: ability === 'read' };
    }
    const user = await this.users.checkCredentials(login, secret);
    if (!user) return undefined;
    this.credentials.set(key, user.id);
    return { kind: 'user', user };
  }

  /**
   * The owner of the SSH key with this fingerprint, read when a command is run (so a block or a
   * removed key counts at once): a user, a deploy key, or the refusal a client is shown.
   */
  async sshCaller(fingerprint: string): Promise<GitCaller | { refusal: string }> {
    const key = await this.keys.findByFingerprint(fingerprint);
    if (!key) return { refusal: GIT_ACCESS_REFUSALS.unknownKey };
    if (key.user_id === null) return { kind: 'deploy_key', keyId: key.id };
    const user = await this.users.findById(key.user_id);
    if (user?.state !== 'active') return { refusal: GIT_ACCESS_REFUSALS.blocked };
    return { kind: 'user', user };
  }

  /**
   * Whether this caller (null: anonymous) may fetch (`read`) or push (`write`). A build only fetches:
   * its own project, and (GitLab 8.12's build permissions) any project its user may fetch from.
   */
  async access(caller: GitCaller | null, project: Project, action: 'read' | 'write'): Promise<GitAccessAnswer> {
    if (caller?.kind === 'build') {
      if (action === 'write') return 'forbidden';
      if (caller.projectId === project.id) return 'ok';
      const user = caller.userId === null ? undefined : await this.users.findById(caller.userId);
      const standing = await this.projects.standing(project, user?.state === 'active' ? user : null);
      return can(standing, 'download_code') ? 'ok' : 'not_found';
    }
    if (caller?.kind === 'deploy_key') {
      if (!(await this.deployKeys.isEnabled(caller.keyId, project.id))) return 'not_found';
      return action === 'read' ? 'ok' : 'forbidden';
    }
    const user = caller?.user ?? null;
    const standing = await this.projects.standing(project, user);
    if (action === 'write' && caller?.readOnly) return can(standing, 'read_project') ? 'forbidden' : 'not_found';
    if (can(standing, action === 'read' ? 'download_code' : 'push_code')) return 'ok';
    if (!user) return 'unauthorized';
    return can(standing, 'read_project') ? 'forbidden' : 'not_found';
  }

  /** The push rule for a push's ref updates, before git sees the pack. */
  async checkPush(caller: GitCaller, project: Project, updates: RefUpdate[]): Promise<PushVerdict> {
    if (caller.kind !== 'user')
      return { rejections: updates.map((update) => ({ ref: update.ref, message: PUSH_REFUSALS.push })), fastForwardOnly: [] };
    const standing = await this.projects.standing(project, caller.user);
    // A project without a default branch has never received one: cheaper to know than asking git.
    return this.pushRules.judge(project, standing, updates, project.default_branch === null);
  }

  /** Once git applied a push: the updates that took effect. */
  async afterPush(caller: GitCaller, project: Project, updates: RefUpdate[]): Promise<void> {
    if (caller.kind !== 'user') return;
    await this.pushes.accepted(project, caller.user.id, updates);
  }
}
