import { Type } from '@sinclair/typebox';
import type { Release as ReleaseRow, TagView } from '../../../services/repository/tags';
import { Nullable } from './common';
import { RawCommit, presentRawCommit } from './branch';

export const Release = Type.Object({
  tag_name: Type.String(),
  description: Type.String(),
});

export const RepoTag = Type.Object({
  name: Type.String(),
  /** The annotation, or null for a lightweight tag. */
  message: Nullable(Type.String()),
  /** Null only for a tag of a tree or a blob. */
  commit: Nullable(RawCommit),
  release: Nullable(Release),
});

export const presentRelease = (release: ReleaseRow) => ({ tag_name: release.tag, description: release.description });

export function presentTag(tag: TagView) {
  return {
    name: tag.name,
    message: tag.message,
    commit: tag.commit ? presentRawCommit(tag.commit) : null,
    release: tag.release ? presentRelease(tag.release) : null,
  };
}
