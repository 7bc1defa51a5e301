import path from 'node:path';
import type { ServiceContext } from '../context';
import type { Project } from '../projects/types';
import type { ProjectStanding } from '../policy';
import { mayCommitTo, type PushRulesService } from './push-rules';
import type { DefaultBranchService } from './default-branch';
import { repoPathOf } from './repositories';
import { refsMoved } from './refs-version';
import { enqueuePushProcessing } from './pushes';
import { badRequest, notFound } from '../../errors';
import { commitFiles, type CommitFilesResult, type FileChange } from '../../git/commit-files';
import { resolveCommit } from '../../git/commits';
import { GitStoreError } from '../../git/errors';
import { lastCommitForPath } from '../../git/log';
import { normalizeRepoPath } from '../../git/paths';
import { ZERO_OID } from '../../git/ref-names';
import { findBranch } from '../../git/refs';
import { isEmpty } from '../../git/repositories';
import { blobAtPath } from '../../git/tree';
import { actionFailure, changesOf, checkLastCommits, COMMIT_MESSAGES, type CommitRequest } from './commit-actions';

export interface RepositoryFile {
  fileName: string;
  filePath: string;
  size: number;
  content: Buffer;
  ref: string;
  blobId: string;
  commitId: string;
  lastCommitId: string;
}

export interface FileWrite {
  action: 'create' | 'update' | 'delete';
  filePath: string;
  branch: string;
  commitMessage: string;
  /** Required to create or update. */
  content?: string;
  /** `base64`, or anything else for text. */
  encoding?: string;
  authorEmail?: string;
  authorName?: string;
}

interface Writer {
  id: number;
  name: string;
  email: string;
}

/** GitLab's `Gitlab::Regex.file_path_regex` and the messages of 8.12's `Files::CreateService`. */
const FILE_PATH = /^[a-zA-Z0-9_\-./@]*$/;
const MESSAGES = {
  notAllowed: 'You are not allowed to push into this branch',
  notOnBranch: 'You can only create or edit files when you are on a branch',
  traversal: 'Your changes could not be committed, because the file name cannot include directory traversal. ',
  fileName:
    "Your changes could not be committed, because the file name can contain only letters, digits, '_', '-', '@' and '.'. Separate directories with a '/'. ",
  exists: 'Your changes could not be committed because a file with the same name already exists',
  // 8.12 created the file on update and failed with a 500 on delete; later GitLab answers this.
  missing: "A file with this name doesn't exist",
  nulMessage: 'Your changes could not be committed because the commit message contains a NUL byte',
};

/** Attempts of one commit when other writers move the branch in between. */
const ATTEMPTS = 3;

/** The files API: one file read or written per request, each write one commit. */
export class FilesService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly pushRules: PushRulesService,
    private readonly defaultBranch: DefaultBranchService,
  ) {}

  async get(project: Project, filePath: string, ref: string): Promise<RepositoryFile> {
    const repoPath = repoPathOf(this.ctx, project.id);
    const commit = await resolveCommit(this.ctx.git, repoPath, ref);
    if (!commit) throw notFound('Commit');
    const [blob, last] = await Promise.all([
      blobAtPath(this.ctx.git, repoPath, commit.id, filePath),
      lastCommitForPath(this.ctx.git, repoPath, commit.id, filePath),
    ]);
    if (!blob || !last) throw notFound('File');
    const normalized = normalizeRepoPath(filePath)!;
    return {
      fileName: path.posix.basename(normalized),
      filePath: normalized,
      size: blob.size,
      content: blob.content,
      ref,
      blobId: blob.id,
      commitId: commit.id,
      lastCommitId: last.id,
    };
  }

  /**
   * One commit on `branch`, checked in 8.12's order: the push rules, that the branch exists (a
   * commit to an empty repository creates it), then the path. Answers the path as it was written.
   */
  async write(project: Project, standing: ProjectStanding, writer: Writer, request: FileWrite): Promise<string> {
    const repoPath = repoPathOf(this.ctx, project.id);
    const [empty, head] = await Promise.all([isEmpty(repoPath), findBranch(this.ctx.git, repoPath, request.branch)]);
    if (!mayCommitTo(await this.pushRules.ground(project, standing, empty), request.branch)) throw badRequest(MESSAGES.notAllowed);
    if (!empty && !head) throw badRequest(MESSAGES.notOnBranch);
    const filePath = request.action === 'create' ? checkedNewPath(request.filePath) : request.filePath;

    const change: FileChange =
      request.action === 'delete'
        ? { action: 'delete', path: filePath }
        : {
            action: request.action,
            path: filePath,
            content: Buffer.from(request.content ?? '', request.encoding === 'base64' ? 'base64' : 'utf8'),
          };
    // 8.12 takes the author from the request only when both halves are given (blank is not given); the committer is always the caller.
    const committer = { name: writer.name, email: writer.email };
    const author =
      present(request.authorEmail) && present(request.authorName) ? { name: request.authorName, email: request.authorEmail } : committer;

    const result = await this.commitWithRetries(repoPath, request.branch, {
      branch: request.branch,
      changes: [change],
      message: request.commitMessage,
      author,
      committer,
      // Should the branch vanish meanwhile, commit on the head that was checked, never on an empty tree.
      startRef: head?.commit.id,
    });
    await this.announce(project, writer.id, request.branch, result, empty);
    return filePath;
  }

  /**
   * One commit of several actions on `branch` (GitLab's commits API of 9.x–11.x): all of them in one
   * tree write, so a refused action changes nothing. A branch that does not exist starts at
   * `startBranch`. Answers the new commit's id.
   */
  async commit(project: Project, standing: ProjectStanding, writer: Writer, request: CommitRequest): Promise<string> {
    const repoPath = repoPathOf(this.ctx, project.id);
    const changes = changesOf(request.actions);
    const startName = request.startBranch !== undefined && request.startBranch !== '' ? request.startBranch : undefined;
    const [empty, head, start] = await Promise.all([
      isEmpty(repoPath),
      findBranch(this.ctx.git, repoPath, request.branch),
      startName === undefined || startName === request.branch ? undefined : findBranch(this.ctx.git, repoPath, startName),
    ]);
    if (!mayCommitTo(await this.pushRules.ground(project, standing, empty), request.branch)) throw badRequest(MESSAGES.notAllowed);
    if (head && start) throw badRequest(COMMIT_MESSAGES.branchExists(request.branch));
    if (!head && startName !== undefined && startName !== request.branch && !start)
      throw badRequest(COMMIT_MESSAGES.noStartBranch(startName));
    if (!empty && !head && !start) throw badRequest(MESSAGES.notOnBranch);
    const base = head?.commit.id ?? start?.commit.id;
    await checkLastCommits(this.ctx.git, repoPath, base, request.actions);

    const committer = { name: writer.name, email: writer.email };
    const author =
      present(request.authorEmail) && present(request.authorName) ? { name: request.authorName, email: request.authorEmail } : committer;
    const result = await this.commitWithRetries(
      repoPath,
      request.branch,
      { branch: request.branch, changes, message: request.commitMessage, author, committer, startRef: base },
      actionFailure,
    );
    await this.announce(project, writer.id, request.branch, result, empty);
    return result.commitId;
  }

  /** What every commit of the API does after it lands: the refs version, the first branch adopted, the push processed. */
  private async announce(project: Project, userId: number, branch: string, result: CommitFilesResult, empty: boolean) {
    const repoPath = repoPathOf(this.ctx, project.id);
    const oldId = result.branchCreated
      ? ZERO_OID
      : ((await resolveCommit(this.ctx.git, repoPath, result.commitId))?.parentIds[0] ?? ZERO_OID);
    await refsMoved(this.ctx, project);
    if (empty && result.branchCreated) await this.defaultBranch.adopt(project, branch);
    await enqueuePushProcessing(this.ctx, project.id, userId, [{ oldId, newId: result.commitId, ref: `refs/heads/${branch}` }]);
  }

  /** Local writers of the branch queue; a writer elsewhere that moved it first makes this one read again and retry. */
  private commitWithRetries(
    repoPath: string,
    branch: string,
    options: Parameters<typeof commitFiles>[2],
    failure: (error: unknown) => unknown = () => undefined,
  ): Promise<CommitFilesResult> {
    return this.ctx.refLocks.run(repoPath, `refs/heads/${branch}`, async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await commitFiles(this.ctx.git, repoPath, options);
        } catch (error) {
          const raced = error instanceof GitStoreError && (error.code === 'ref_moved' || error.code === 'ref_exists');
          if (raced && attempt < ATTEMPTS) continue;
          throw failure(error) ?? commitFailure(error, branch);
        }
      }
    });
  }
}

const present = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/** 8.12's `Files::CreateService` checks; one leading `/` is dropped, as it did. */
function checkedNewPath(value: string): string {
  if (value.includes('..')) throw badRequest(MESSAGES.traversal);
  if (!FILE_PATH.test(value)) throw badRequest(MESSAGES.fileName);
  return value.startsWith('/') ? value.slice(1) : value;
}

function commitFailure(error: unknown, branch: string): unknown {
  if (!(error instanceof GitStoreError)) return error;
  switch (error.code) {
    case 'file_exists':
      return badRequest(MESSAGES.exists);
    case 'file_missing':
      return badRequest(MESSAGES.missing);
    case 'path_conflict':
      return badRequest(`Your changes could not be committed because ${error.message}`);
    // The message of 8.12's `Gitlab::Git::Repository::InvalidBlobName` for a path it refused.
    case 'invalid_path':
      return badRequest('Invalid path');
    case 'invalid_ref_name':
      return badRequest('Branch name is invalid');
    case 'invalid_identity':
      return badRequest('Something went wrong. Your changes were not committed');
    // Git cannot store it; 8.12 (Rugged) answered 500.
    case 'invalid_message':
      return badRequest(MESSAGES.nulMessage);
    // Still losing the race after the retries: 8.12's `Repository::CommitError` text.
    case 'ref_moved':
    case 'ref_exists':
      return badRequest(`Could not update branch ${branch}. Please refresh and try again.`);
    default:
      return error;
  }
}
