import type { ServiceContext } from '../context';
import type { Project } from '../projects/types';
import { notFound } from '../../errors';
import { repoPathOf } from './repositories';
import { refsOf } from './refs-version';
import { blame, type BlameRange } from '../../git/blame';
import { blobInfoAtPath } from '../../git/blob-read';
import { resolveCommitId } from '../../git/commits';
import { ImmutableCache } from '../../git/immutable-cache';

/** A ref and a path read out of one URL segment (`feature/x/src/app.ts`), and the commit the ref names. */
export interface RefPath {
  ref: string;
  path: string;
  commitId: string;
}

const FULL_SHA = /^([0-9a-f]{40}|[0-9a-f]{64})(?:\/(.*))?$/;

/** Files past this size are not blamed: the page would not show them. */
const BLAME_MAX_BYTES = 1024 * 1024;

/** What browsing a repository needs beside its trees and files: refs by name, a ref in a path, blame. */
export class RepositoryBrowseService {
  /** Blame of a file at a commit never changes: kept by commit and path, up to 32 MiB of lines. */
  private readonly blames = new ImmutableCache<BlameRange[]>({
    maxEntries: 200,
    maxBytes: 32 * 1024 * 1024,
    weigh: (ranges) => ranges.reduce((sum, range) => sum + range.lines.reduce((lines, line) => lines + 2 * line.length + 40, 100), 100),
  });

  constructor(private readonly ctx: ServiceContext) {}

  /** Every branch and tag name, from the kept refs (no process). */
  async refNames(project: Project): Promise<{ branches: string[]; tags: string[] }> {
    return (await refsOf(this.ctx, project)).names();
  }

  /**
   * GitLab's `ExtractsPath#extract_ref`: a full sha and what follows it, else the longest branch or
   * tag name the segment starts with (names may hold slashes), else its first segment. Undefined
   * when that names no commit.
   */
  async extractRef(project: Project, id: string): Promise<RefPath | undefined> {
    const trimmed = id.replace(/^\/+/, '');
    let ref: string;
    let path: string;
    const sha = FULL_SHA.exec(trimmed);
    if (sha) {
      ref = sha[1];
      path = sha[2] ?? '';
    } else {
      const { branches, tags } = await this.refNames(project);
      const best = [...branches, ...tags]
        .filter((name) => trimmed === name || trimmed.startsWith(`${name}/`))
        .reduce<string | undefined>((longest, name) => (longest === undefined || name.length > longest.length ? name : longest), undefined);
      ref = best ?? trimmed.split('/')[0];
      path = trimmed.slice(ref.length + 1);
    }
    if (ref === '') return undefined;
    const commitId = await resolveCommitId(this.ctx.git, repoPathOf(this.ctx, project.id), ref);
    return commitId === undefined ? undefined : { ref, path: path.replace(/\/+$/, ''), commitId };
  }

  /** The id and size of the file at a path in a commit, without reading it; undefined for a folder, a submodule or nothing. */
  blobInfo(project: Project, commitId: string, path: string): Promise<{ id: string; size: number } | undefined> {
    return blobInfoAtPath(this.ctx.git, repoPathOf(this.ctx, project.id), commitId, path);
  }

  /** Who last changed each line of a file at a commit; `404 File Not Found` for no file, an empty list for one too large. */
  async blame(project: Project, commitId: string, path: string): Promise<BlameRange[]> {
    const repoPath = repoPathOf(this.ctx, project.id);
    const info = await blobInfoAtPath(this.ctx.git, repoPath, commitId, path);
    if (!info) throw notFound('File');
    if (info.size > BLAME_MAX_BYTES) return [];
    return this.blames.get(`${repoPath}\0${commitId}\0${path}`, async () => {
      const ranges = await blame(repoPath, commitId, path);
      if (!ranges) throw notFound('File');
      return ranges;
    });
  }
}
