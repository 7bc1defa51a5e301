import { forEachRef, toBranches, toTags, type Branch, type RawRef, type TagRef } from './refs';
import { branchesMergedInto } from './containing';
import type { GitReader } from './reader';

/**
 * A repository's branches and tags as one `for-each-ref` read them, with what was read of their
 * commits. Lists are read once per snapshot and shared: callers must not modify them.
 */
export class RefsSnapshot {
  private readonly branchRefs = new Map<string, RawRef>();
  private readonly tagRefs = new Map<string, RawRef>();
  private branchList: Promise<Branch[]> | undefined;
  private tagList: Promise<TagRef[]> | undefined;
  private readonly merged = new Map<string, Promise<Set<string>>>();
  private readonly mergedByBranch = new Map<string, Promise<MergedIntoBranch>>();
  /** Branches read one by one (a branch's page, v4's default branch) before or without the list. */
  private readonly branchReads = new Map<string, Promise<Branch | undefined>>();

  constructor(
    private readonly git: GitReader,
    private readonly repoPath: string,
    private readonly refs: RawRef[],
  ) {
    for (const raw of refs) {
      if (raw.ref.startsWith('refs/heads/')) this.branchRefs.set(raw.ref.slice('refs/heads/'.length), raw);
      else if (raw.ref.startsWith('refs/tags/')) this.tagRefs.set(raw.ref.slice('refs/tags/'.length), raw);
    }
  }

  /** The names of every branch and tag, without reading a commit. */
  names(): { branches: string[]; tags: string[] } {
    return { branches: [...this.branchRefs.keys()], tags: [...this.tagRefs.keys()] };
  }

  /** All branches with their head commits, sorted by name. */
  branches(): Promise<Branch[]> {
    this.branchList ??= toBranches(this.git, this.repoPath, [...this.branchRefs.values()]);
    return this.branchList;
  }

  /** All tags, sorted by name ascending. */
  tags(): Promise<TagRef[]> {
    this.tagList ??= toTags(this.git, this.repoPath, [...this.tagRefs.values()]);
    return this.tagList;
  }

  /**
   * The branches whose head is in the history of `target` (`git branch --merged`), asked of git once
   * per snapshot: v4 shows `merged` with every branch of a list.
   */
  mergedInto(target: string): Promise<Set<string>> {
    let merged = this.merged.get(target);
    if (merged === undefined) {
      merged = branchesMergedInto(this.repoPath, target).then((names) => new Set(names));
      this.merged.set(target, merged);
      merged.catch(() => this.merged.delete(target));
    }
    return merged;
  }

  /**
   * The branches merged into the branch `name` (its head commit and `mergedInto` of it), once per
   * snapshot: v4 asks it with every list of branches. Undefined head when there is no such branch.
   */
  mergedIntoBranch(name: string): Promise<MergedIntoBranch> {
    let answer = this.mergedByBranch.get(name);
    if (answer === undefined) {
      answer = this.branch(name).then(async (branch) => {
        const headId = branch?.commit.id;
        return { headId, merged: headId === undefined ? NONE_MERGED : await this.mergedInto(headId) };
      });
      this.mergedByBranch.set(name, answer);
      answer.catch(() => this.mergedByBranch.delete(name));
    }
    return answer;
  }

  /** Whether `refs` (as `for-each-ref` lists them) are exactly the refs this snapshot was read from. */
  sameRefs(refs: RawRef[]): boolean {
    if (refs.length !== this.refs.length) return false;
    for (let i = 0; i < refs.length; i++) {
      const mine = this.refs[i];
      const theirs = refs[i];
      if (mine.ref !== theirs.ref || mine.oid !== theirs.oid || mine.type !== theirs.type) return false;
    }
    return true;
  }

  /** One branch with its head commit: from the list when it was read, else read once per snapshot. */
  async branch(name: string): Promise<Branch | undefined> {
    const raw = this.branchRefs.get(name);
    if (!raw) return undefined;
    if (this.branchList) return (await this.branchList).find((branch) => branch.name === name);
    let read = this.branchReads.get(name);
    if (read === undefined) {
      read = toBranches(this.git, this.repoPath, [raw]).then((branches) => branches[0]);
      this.branchReads.set(name, read);
      read.catch(() => this.branchReads.delete(name));
    }
    return read;
  }

  async tag(name: string): Promise<TagRef | undefined> {
    const raw = this.tagRefs.get(name);
    if (!raw) return undefined;
    if (this.tagList) return (await this.tagList).find((tag) => tag.name === name);
    return (await toTags(this.git, this.repoPath, [raw]))[0];
  }
}

/** A branch's head commit and the names of the branches merged into it (itself among them). */
export interface MergedIntoBranch {
  headId: string | undefined;
  merged: ReadonlySet<string>;
}

const NONE_MERGED: ReadonlySet<string> = new Set<string>();

interface Entry {
  version: number;
  readAt: number;
  snapshot: Promise<RefsSnapshot>;
}

/** Repositories whose refs are kept at most; the least recently read goes first. */
const MAX_REPOSITORIES = 256;
/**
 * A snapshot is read again after this long even when its version still holds: the version is the
 * contract (every Forge writer bumps it after moving a ref), this only bounds how long a change
 * made behind Forge's back (git run by hand, a writer that died between git and the bump) goes unseen.
 */
const MAX_AGE_MS = 10_000;

/**
 * Branches and tags of recently read repositories, so that listing them costs no process. Each
 * snapshot is kept under the refs version its reader was given (`projects.refs_version`, which
 * every writer bumps after the refs moved, in whichever process): a reader with a newer version
 * reads the refs again, so a change made through any Forge process is seen by the next request
 * that reads the project row after it.
 */
export class RefsCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly git: GitReader) {}

  /** The refs of `repoPath` at `version` (or newer): kept, being read, or read now. */
  get(repoPath: string, version: number): Promise<RefsSnapshot> {
    const time = Date.now();
    const known = this.entries.get(repoPath);
    if (known && known.version >= version && time - known.readAt < MAX_AGE_MS) {
      this.entries.delete(repoPath);
      this.entries.set(repoPath, known);
      return known.snapshot;
    }
    // The caller read `version` before git is asked here, so what git answers is at least that new.
    const entry: Entry = { version, readAt: time, snapshot: readSnapshot(this.git, repoPath, known?.snapshot) };
    this.entries.delete(repoPath);
    this.entries.set(repoPath, entry);
    entry.snapshot.catch(() => {
      if (this.entries.get(repoPath) === entry) this.entries.delete(repoPath);
    });
    while (this.entries.size > MAX_REPOSITORIES) this.entries.delete(this.entries.keys().next().value!);
    return entry.snapshot;
  }
}

/**
 * The refs as git lists them now. When they are the very refs of the snapshot read before (same
 * names, same objects), that snapshot is kept: everything it read (commits, tags, what is merged)
 * follows from the object ids alone, so a snapshot that only aged costs one `for-each-ref`.
 */
async function readSnapshot(git: GitReader, repoPath: string, previous: Promise<RefsSnapshot> | undefined): Promise<RefsSnapshot> {
  const refs = await forEachRef(repoPath, ['refs/heads/', 'refs/tags/']);
  const kept = previous && (await previous.catch(() => undefined));
  return kept?.sameRefs(refs) ? kept : new RefsSnapshot(git, repoPath, refs);
}
