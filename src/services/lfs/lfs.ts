import type { Readable } from 'node:stream';
import type { ServiceContext } from '../context';
import type { Project } from '../projects/types';
import type { User, UsersService } from '../users/users';
import type { GitAccessAnswer, GitAccessService, GitCaller } from '../repository/git-access';
import { apiError, notFound } from '../../errors';
import { projectUrls } from '../../lib/urls';
import { isLfsToken, readLfsToken, type LfsGrant, type LfsOperation } from './tokens';
import { isObjectSize, isOid, objectKey, verifiedContent } from '../lfs-objects/object-files';
import { linkedOids, objectRecorded, recordObject } from '../lfs-objects/queries';
import { lfsAuthentication, type LfsActor, type LfsAuthentication } from './ssh-authenticate';

const MIB = 1024 * 1024;

/** Who asks the LFS routes: a git caller (password, private token, build token) or the bearer of a token from `git-lfs-authenticate`. */
export type LfsCaller = GitCaller | { kind: 'lfs_token'; grant: LfsGrant; user?: User };

/** As git's answers, plus `disabled`: LFS is off on this instance (501). */
export type LfsAccessAnswer = GitAccessAnswer | 'disabled';

/** One object of a batch request, as sent: checked here, since a bad one gets its own error in the answer. */
export interface LfsObjectRequest {
  oid?: unknown;
  size?: unknown;
}

export interface LfsAction {
  href: string;
  header?: Record<string, string>;
}

/** One object of a batch answer (the Git LFS batch API). */
export interface LfsBatchObject {
  oid: string;
  size: number;
  actions?: { download?: LfsAction; upload?: LfsAction };
  error?: { code: number; message: string };
}

const MISSING = "Object does not exist on the server or you don't have permissions to access it";

/**
 * Git LFS for a project (GitLab 8.12's `Projects::LfsApiController` and `LfsStorageController`):
 * who may download and upload, the batch API's answers, and objects stored by their SHA-256 in
 * the file store, verified as they stream in. Objects are shared by content; a project sees the
 * objects it links.
 */
export class LfsService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly gitAccess: GitAccessService,
    private readonly users: UsersService,
  ) {}

  /** `git-lfs-authenticate` over SSH, for a caller the SSH door found may read or push to the project (see `lfsAuthentication`). */
  sshCredential(actor: LfsActor, project: Project, operation: LfsOperation): LfsAuthentication {
    return lfsAuthentication(this.ctx, actor, project, operation);
  }

  findProject(fullPath: string): Promise<Project | undefined> {
    return this.gitAccess.findProject(fullPath);
  }

  /** HTTP Basic credentials: an LFS token, or whatever git over HTTP takes. */
  async authenticate(login: string, secret: string): Promise<LfsCaller | undefined> {
    if (!isLfsToken(secret)) return this.gitAccess.authenticate(login, secret);
    const grant = readLfsToken(this.ctx.secrets, secret, Math.floor(Date.now() / 1000));
    if (!grant) return undefined;
    if (!('userId' in grant.actor)) return { kind: 'lfs_token', grant };
    const user = await this.users.findById(grant.actor.userId);
    return user?.state === 'active' ? { kind: 'lfs_token', grant, user } : undefined;
  }

  /**
   * Whether the caller (null: anonymous) may download (read the code) or upload (push) objects:
   * git's rules, then GitLab 8.12's: LFS off on the instance answers 501 to everyone, off on a
   * project 403 to those who see it.
   */
  async access(caller: LfsCaller | null, project: Project, operation: LfsOperation): Promise<LfsAccessAnswer> {
    if (!this.ctx.config.lfsEnabled) return 'disabled';
    const answer = await this.callerAccess(caller, project, operation);
    if (answer !== 'ok') return answer;
    return project.lfs_enabled === 1 ? 'ok' : 'forbidden';
  }

  private async callerAccess(caller: LfsCaller | null, project: Project, operation: LfsOperation): Promise<GitAccessAnswer> {
    const action = operation === 'download' ? 'read' : 'write';
    if (caller?.kind !== 'lfs_token') return this.gitAccess.access(caller, project, action);
    const { grant, user } = caller;
    if (grant.projectId !== project.id) return 'not_found';
    if (operation === 'upload' && grant.operation !== 'upload') return 'forbidden';
    // A deploy key's token was granted by the SSH server, which checked the key: it downloads its project.
    if (!user) return operation === 'download' ? 'ok' : 'forbidden';
    return this.gitAccess.access({ kind: 'user', user }, project, action);
  }

  /**
   * The batch API's answer for objects the caller may `operation` (checked before): downloads for
   * the objects the project links, 404 for others; uploads for those it does not link yet (an
   * object stored for another project is sent again, which proves the uploader has it).
   * `authorization` is handed back in each action, so the client reuses its credentials.
   */
  async batch(
    project: Project,
    operation: LfsOperation,
    objects: LfsObjectRequest[],
    authorization: string | undefined,
  ): Promise<LfsBatchObject[]> {
    const valid = objects.filter((object) => isOid(object.oid) && isObjectSize(object.size)).map((object) => object.oid as string);
    const linked = await linkedOids(this.ctx.db, project.id, [...new Set(valid)]);
    // A link whose file is gone (see removeUnlinkedLfsObjects) is sent again rather than taken as there.
    const present = operation === 'upload' ? await this.withFiles(linked) : linked;
    const base = `${projectUrls(this.ctx.config, project).http}/gitlab-lfs/objects`;
    const header = authorization ? { Authorization: authorization } : undefined;
    const limit = this.limitBytes();
    return objects.map((object): LfsBatchObject => {
      const oid = typeof object.oid === 'string' ? object.oid : String(object.oid ?? '');
      const size = typeof object.size === 'number' && Number.isFinite(object.size) ? object.size : 0;
      if (!isOid(object.oid))
        return { oid, size, error: { code: 422, message: 'Invalid oid: it must be the SHA-256 of the content, 64 lower-case hex digits' } };
      if (!isObjectSize(object.size)) return { oid, size, error: { code: 422, message: 'Invalid size: it must be a number of bytes' } };
      if (operation === 'download') {
        if (!present.has(oid)) return { oid, size, error: { code: 404, message: MISSING } };
        return { oid, size, actions: { download: { href: `${base}/${oid}`, ...(header && { header }) } } };
      }
      if (present.has(oid)) return { oid, size };
      if (size > limit) return { oid, size, error: { code: 413, message: this.tooLargeMessage() } };
      return {
        oid,
        size,
        actions: { upload: { href: `${base}/${oid}/${size}`, header: { ...header, 'Content-Type': 'application/octet-stream' } } },
      };
    });
  }

  /**
   * Stores an uploaded object, streamed (never held whole): its bytes must be `size` and hash to
   * `oid` (422 otherwise), and at most the limit (413); a refused upload leaves nothing stored.
   * `declaredLength` is the request's Content-Length, when it has one: checked before reading.
   */
  async store(project: Project, oid: string, size: number, content: AsyncIterable<Uint8Array>, declaredLength?: number): Promise<void> {
    if (!isOid(oid)) throw apiError(422, 'Invalid oid: it must be the SHA-256 of the content, 64 lower-case hex digits');
    if (!isObjectSize(size)) throw apiError(422, 'Invalid size: it must be a number of bytes');
    const limit = this.limitBytes();
    if (size > limit || (declaredLength !== undefined && declaredLength > limit)) throw apiError(413, this.tooLargeMessage());
    if (declaredLength !== undefined && declaredLength !== size)
      throw apiError(422, `The upload has ${declaredLength} bytes, not the ${size} bytes announced`);
    await this.ctx.files.put(objectKey(oid), verifiedContent(content, oid, size));
    try {
      await recordObject(this.ctx.db, project.id, oid, size);
    } catch (error) {
      // The project went while the content streamed in: a file no row names would stay for ever.
      if (!(await objectRecorded(this.ctx.db, oid))) await this.ctx.files.delete(objectKey(oid));
      throw error;
    }
  }

  /** An object the project links, for download; 404 otherwise. */
  async open(project: Project, oid: string): Promise<{ size: number; stream: Readable }> {
    if (!isOid(oid) || !(await linkedOids(this.ctx.db, project.id, [oid])).has(oid)) throw notFound();
    const key = objectKey(oid);
    const stat = await this.ctx.files.stat(key);
    const stream = stat && (await this.ctx.files.read(key));
    if (!stat || !stream) throw notFound();
    return { size: stat.size, stream };
  }

  private async withFiles(oids: Set<string>): Promise<Set<string>> {
    const stats = await Promise.all([...oids].map(async (oid) => [oid, await this.ctx.files.stat(objectKey(oid))] as const));
    return new Set(stats.filter(([, stat]) => stat !== undefined).map(([oid]) => oid));
  }

  private limitBytes(): number {
    return this.ctx.config.maxLfsObjectSizeMb * MIB;
  }

  private tooLargeMessage(): string {
    return `The object is larger than the limit of ${this.ctx.config.maxLfsObjectSizeMb} MiB`;
  }
}
