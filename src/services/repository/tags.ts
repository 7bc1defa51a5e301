import type { Selectable } from 'kysely';
import type { ServiceContext } from '../context';
import type { Project } from '../projects/types';
import type { ReleasesTable } from '../../db/schema';
import { repoPathOf } from './repositories';
import { enqueuePushProcessing } from './pushes';
import { badRequest, conflict, notFound, notFoundMessage } from '../../errors';
import { now } from '../../lib/time';
import { findTag, type TagRef } from '../../git/refs';
import { refsMoved, refsOf } from './refs-version';
import { createTag, deleteTag } from '../../git/write';
import { resolveCommitId } from '../../git/commits';
import { GitStoreError } from '../../git/errors';
import { isValidTagName, ZERO_OID } from '../../git/ref-names';
import type { Db } from '../../db/index';
import { preparedPerHandle } from '../../db/prepared';

export type Release = Selectable<ReleasesTable>;

export interface TagView extends TagRef {
  release: Release | null;
}

export interface NewTag {
  name: string;
  ref: string;
  /** Makes an annotated tag. */
  message?: string;
  releaseDescription?: string;
}

const tagMissing = () => notFoundMessage('Tag does not exist');

/** Tags of a project's repository and their release notes (kept in the database). */
/** Release notes, read with every tag list and tag: compiled once. */
const releasesOf = preparedPerHandle((db: Db, projectId: number) =>
  db.selectFrom('releases').selectAll().where('project_id', '=', projectId),
);
const releaseOf = preparedPerHandle((db: Db, projectId: number, tag: string) =>
  db.selectFrom('releases').selectAll().where('project_id', '=', projectId).where('tag', '=', tag),
);

export class TagsService {
  constructor(private readonly ctx: ServiceContext) {}

  /** Newest name first: GitLab sorts by name and reverses. */
  async list(project: Project): Promise<TagView[]> {
    const [tags, releases] = await Promise.all([refsOf(this.ctx, project).then((refs) => refs.tags()), this.releases(project.id)]);
    const byTag = new Map(releases.map((release) => [release.tag, release]));
    return [...tags].reverse().map((tag) => ({ ...tag, release: byTag.get(tag.name) ?? null }));
  }

  async find(project: Project, name: string): Promise<TagView> {
    const [tag, releases] = await Promise.all([refsOf(this.ctx, project).then((refs) => refs.tag(name)), this.releases(project.id, name)]);
    if (!tag) throw notFound('Tag');
    return { ...tag, release: releases[0] ?? null };
  }

  /** GitLab's `CreateTagService`: the name, then the target (a commit), then whether the tag exists. */
  async create(project: Project, tagger: { id: number; name: string; email: string }, tag: NewTag): Promise<TagView> {
    const repoPath = repoPathOf(this.ctx, project.id);
    if (!isValidTagName(tag.name)) throw badRequest('Tag name invalid');
    const target = await resolveCommitId(this.ctx.git, repoPath, tag.ref);
    if (target === undefined) throw badRequest(`Target ${tag.ref} is invalid`);
    const annotation =
      tag.message === undefined ? undefined : { message: tag.message.trim(), tagger: { name: tagger.name, email: tagger.email } };
    let id: string;
    try {
      id = await createTag(this.ctx.git, repoPath, tag.name, target, annotation);
    } catch (error) {
      if (error instanceof GitStoreError && error.code === 'ref_exists') throw badRequest(`Tag ${tag.name} already exists`);
      // Git cannot store it (mktag would keep it and readers cut the message there).
      if (error instanceof GitStoreError && error.code === 'invalid_message') throw badRequest('Tag message cannot contain a NUL byte');
      // `v1/x` next to a tag `v1`: git cannot store both; 8.12 answered 500.
      if (error instanceof GitStoreError && error.code === 'ref_name_conflict')
        throw badRequest(`Tag ${tag.name} conflicts with an existing tag`);
      throw error;
    }
    await refsMoved(this.ctx, project);
    // A blank description makes no release (8.12's model refused it silently).
    if (tag.releaseDescription !== undefined && tag.releaseDescription.trim() !== '') {
      await this.upsertRelease(project.id, tag.name, tag.releaseDescription);
    }
    await enqueuePushProcessing(this.ctx, project.id, tagger.id, [{ oldId: ZERO_OID, newId: id, ref: `refs/tags/${tag.name}` }]);
    return this.find(project, tag.name);
  }

  /** Deletes the tag and its release notes. */
  async remove(project: Project, userId: number, name: string): Promise<void> {
    const repoPath = repoPathOf(this.ctx, project.id);
    const tag = await findTag(this.ctx.git, repoPath, name);
    if (!tag) throw notFoundMessage('No such tag');
    try {
      await deleteTag(repoPath, name, tag.targetId);
    } catch (error) {
      if (error instanceof GitStoreError && error.code === 'ref_missing') throw notFoundMessage('No such tag');
      if (error instanceof GitStoreError && error.code === 'ref_moved') throw badRequest('Failed to remove tag');
      throw error;
    }
    await refsMoved(this.ctx, project);
    await this.ctx.db.deleteFrom('releases').where('project_id', '=', project.id).where('tag', '=', name).execute();
    await enqueuePushProcessing(this.ctx, project.id, userId, [{ oldId: tag.targetId, newId: ZERO_OID, ref: `refs/tags/${name}` }]);
  }

  async createRelease(project: Project, tagName: string, description: string): Promise<Release> {
    if (!(await findTag(this.ctx.git, repoPathOf(this.ctx, project.id), tagName))) throw tagMissing();
    const time = now();
    // The unique (project, tag) index decides between two concurrent creators.
    const created = await this.ctx.db
      .insertInto('releases')
      .values({ project_id: project.id, tag: tagName, description, created_at: time, updated_at: time })
      .onConflict((oc) => oc.columns(['project_id', 'tag']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!created) throw conflict('Release already exists');
    return created;
  }

  async updateRelease(project: Project, tagName: string, description: string): Promise<Release> {
    if (!(await findTag(this.ctx.git, repoPathOf(this.ctx, project.id), tagName))) throw tagMissing();
    const updated = await this.ctx.db
      .updateTable('releases')
      .set({ description, updated_at: now() })
      .where('project_id', '=', project.id)
      .where('tag', '=', tagName)
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw notFoundMessage('Release does not exist');
    return updated;
  }

  private async upsertRelease(projectId: number, tagName: string, description: string): Promise<void> {
    const time = now();
    await this.ctx.db
      .insertInto('releases')
      .values({ project_id: projectId, tag: tagName, description, created_at: time, updated_at: time })
      .onConflict((oc) => oc.columns(['project_id', 'tag']).doUpdateSet({ description, updated_at: time }))
      .execute();
  }

  private releases(projectId: number, tagName?: string): Promise<Release[]> {
    return tagName === undefined ? releasesOf(this.ctx.db, projectId) : releaseOf(this.ctx.db, projectId, tagName);
  }
}
