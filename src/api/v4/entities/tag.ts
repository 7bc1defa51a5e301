import { Type, type Static } from '@sinclair/typebox';
import type { Release as ReleaseRow, TagView } from '../../../services/repository/tags';
import { Nullable } from '../../shared/schemas';
import { Commit4, presentCommit } from './commit';

export const Release = Type.Object({ tag_name: Type.String(), description: Type.String() });

/** GitLab 11's `Entities::Tag`: `target` is what the ref points at (the tag object of an annotated tag). */
export const Tag4 = Type.Object({
  name: Type.String(),
  message: Nullable(Type.String()),
  target: Type.String(),
  /** Null only for a tag of a tree or a blob. */
  commit: Nullable(Commit4),
  release: Nullable(Release),
});

export const presentRelease = (release: ReleaseRow): Static<typeof Release> => ({
  tag_name: release.tag,
  description: release.description,
});

export function presentTag(tag: TagView): Static<typeof Tag4> {
  return {
    name: tag.name,
    message: tag.message,
    target: tag.targetId,
    commit: tag.commit ? presentCommit(tag.commit) : null,
    release: tag.release ? presentRelease(tag.release) : null,
  };
}
