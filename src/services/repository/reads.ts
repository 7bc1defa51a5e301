import type { Readable } from 'node:stream';
import type { ServiceContext } from '../context';
import type { Project } from '../projects/types';
import { notFound } from '../../errors';
import { repoPathOf } from './repositories';
import { archiveFormat, archiveStream, type ArchiveFormat } from '../../git/archive';
import { blobInfo, blobInfoAtPath, openBlob, type BlobInfo } from '../../git/blob-read';
import { resolveCommitId } from '../../git/commits';
import { compare } from '../../git/compare';
import { ImmutableCache } from '../../git/immutable-cache';
import { contributors, type Contributor } from '../../git/contributors';
import type { DiffFile } from '../../git/diff';
import type { Commit } from '../../git/objects';
import { defaultBranch } from '../../git/refs';
import { listTree, listTreeRecursive, type TreeEntry } from '../../git/tree';

export interface RawBlob {
  size: number;
  contentType: string;
  body: Buffer | Readable;
}

export interface Archive {
  fileName: string;
  contentType: string;
  stream: Readable;
}

export interface CompareResult {
  commits: Commit[];
  diffs: DiffFile[];
  sameRef: boolean;
  /** GitLab's `compare_timeout`: the diff went past the limits of a page of diffs. */
  timeout: boolean;
}

/** GitLab's default diff collection limits: past these a diff "overflows" (`compare_timeout`). */
const DIFF_LIMITS = { files: 100, lines: 5000, bytes: 100 * 5120 };

/** Extensions the archive route accepts after `archive.` (GitLab's `archive_formats_regex`). */
export const ARCHIVE_EXTENSIONS = new Set(['zip', 'tar', '7z', 'tar.gz', 'tgz', 'gz', 'tar.bz2', 'tbz', 'tbz2', 'tb2', 'bz2']);

/**
 * GitLab's type for raw file bytes: binary when a NUL byte shows in the first 8000 bytes (git's
 * rule); UTF-8 text is labelled so; other text is plain text of unknown charset.
 */
export function blobContentType(head: Buffer): string {
  if (head.includes(0)) return 'application/octet-stream';
  try {
    // `stream` keeps a character cut at the end of the sniffed bytes from counting as invalid.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return 'text/plain; charset=utf-8';
  } catch {
    return 'text/plain';
  }
}

/** Trees, raw files, archives, comparisons and contributors of a project's repository. */
export class RepositoryReadsService {
  /** Recent comparisons by their two commit ids, up to 64 MiB of them (weighed by their text); the app's one instance keeps them. */
  private readonly comparisons = new ImmutableCache<CompareResult>({
    maxEntries: 500,
    maxBytes: 64 * 1024 * 1024,
    weigh: ({ commits, diffs }) =>
      diffs.reduce((sum, file) => sum + 2 * (file.diff.length + file.oldPath.length + file.newPath.length) + 200, 200) +
      commits.reduce((sum, commit) => sum + 2 * commit.message.length + 400, 0),
  });

  constructor(private readonly ctx: ServiceContext) {}

  /** GitLab's `project.default_branch || 'master'`; the branch is discovered when the project has none recorded yet. */
  async defaultRef(project: Project): Promise<string> {
    return project.default_branch ?? (await defaultBranch(repoPathOf(this.ctx, project.id))) ?? 'master';
  }

  /** The ref a client gave, or the default branch when it gave none (or a blank one). */
  async refOrDefault(project: Project, ref: string | undefined): Promise<string> {
    return ref !== undefined && ref.trim() !== '' ? ref : this.defaultRef(project);
  }

  /** A directory at a ref: an unknown ref is `404 Tree Not Found`, a path that is no directory there an empty list. */
  async tree(project: Project, options: { ref?: string; path?: string; recursive?: boolean }): Promise<TreeEntry[]> {
    const repo = repoPathOf(this.ctx, project.id);
    const commitId = await resolveCommitId(this.ctx.git, repo, await this.refOrDefault(project, options.ref));
    if (commitId === undefined) throw notFound('Tree');
    const list = options.recursive ? listTreeRecursive : listTree;
    return (await list(this.ctx.git, repo, commitId, options.path ?? '')) ?? [];
  }

  /** A blob's id, size and bytes by its own sha (full or abbreviated), or `404 Blob Not Found`. */
  async blob(project: Project, sha: string): Promise<{ id: string; size: number; content: Buffer }> {
    const repo = repoPathOf(this.ctx, project.id);
    const info = await blobInfo(this.ctx.git, repo, sha);
    const object = info && (await this.ctx.git.objects.read(repo, info.id));
    if (object?.type !== 'blob') throw notFound('Blob');
    return { id: object.oid, size: object.size, content: object.content };
  }

  /** The file at a path in a commit (sha, branch or tag). */
  async blobAt(project: Project, rev: string, filePath: string): Promise<RawBlob> {
    const repo = repoPathOf(this.ctx, project.id);
    const commitId = await resolveCommitId(this.ctx.git, repo, rev);
    if (commitId === undefined) throw notFound('Commit');
    const info = await blobInfoAtPath(this.ctx.git, repo, commitId, filePath);
    if (!info) throw notFound('File');
    return this.open(repo, info);
  }

  /** A blob by its own sha. */
  async rawBlob(project: Project, sha: string): Promise<RawBlob> {
    const repo = repoPathOf(this.ctx, project.id);
    const info = await blobInfo(this.ctx.git, repo, sha);
    if (!info) throw notFound('Blob');
    return this.open(repo, info);
  }

  /**
   * The tree of a commit as an archive named as GitLab names it: `<project path>-<ref>-<sha>.<ext>`,
   * the ref being what the client asked for (the default branch when nothing), `/` made `-`.
   */
  async archive(project: Project, options: { sha?: string; format?: string }): Promise<Archive> {
    const repo = repoPathOf(this.ctx, project.id);
    const ref = await this.refOrDefault(project, options.sha);
    const commitId = await resolveCommitId(this.ctx.git, repo, ref);
    if (commitId === undefined) throw notFound('File');
    const format: ArchiveFormat = archiveFormat(options.format);
    const prefix = `${project.path}-${ref.replaceAll('/', '-')}-${commitId}`;
    return {
      fileName: `${prefix}.${format}`,
      contentType: format === 'zip' ? 'application/zip' : 'application/octet-stream',
      stream: archiveStream(repo, commitId, format, `${prefix}/`),
    };
  }

  /**
   * GitLab's `Gitlab::Git::Compare`: unknown refs give an empty comparison, not an error. The refs
   * are resolved first: a comparison of two commits never changes, so it is kept by their ids, and
   * the same answer object comes back for the same pair (the door keeps its serialized body by it).
   */
  async compare(project: Project, from: string, to: string, straight = false): Promise<CompareResult> {
    const repoPath = repoPathOf(this.ctx, project.id);
    const [fromId, toId] = await Promise.all([
      resolveCommitId(this.ctx.git, repoPath, from.trim()),
      resolveCommitId(this.ctx.git, repoPath, to.trim()),
    ]);
    if (fromId === undefined || toId === undefined) return { commits: [], diffs: [], sameRef: false, timeout: false };
    return this.comparisons.get(`${repoPath}\0${fromId}\0${toId}\0${straight}`, async () => {
      const result = await compare(this.ctx.git, repoPath, fromId, toId, straight);
      const lines = result.diffs.reduce((sum, file) => sum + lineCount(file.diff), 0);
      const bytes = result.diffs.reduce((sum, file) => sum + Buffer.byteLength(file.diff), 0);
      const timeout =
        result.overflow || result.diffs.length > DIFF_LIMITS.files || lines >= DIFF_LIMITS.lines || bytes >= DIFF_LIMITS.bytes;
      return { commits: result.commits, diffs: result.diffs, sameRef: result.sameRef, timeout };
    });
  }

  /** Authors of the default branch's newest 2000 non-merge commits; an empty repository has none. */
  async contributors(project: Project): Promise<Contributor[]> {
    return contributors(this.ctx.git, repoPathOf(this.ctx, project.id), { ref: await this.defaultRef(project) });
  }

  private async open(repo: string, info: BlobInfo): Promise<RawBlob> {
    const blob = await openBlob(this.ctx.git, repo, info);
    return { size: blob.size, contentType: blobContentType(blob.head), body: blob.body };
  }
}

const lineCount = (text: string): number => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));
