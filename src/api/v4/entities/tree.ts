import { Type, type Static } from '@sinclair/typebox';
import type { TreeEntry } from '../../../git/tree';
import { RepoTreeObject, presentTreeObject } from '../../shared/entities/tree';

/** v4's tree entry: v3's and its path from the repository root. */
export const TreeObject4 = Type.Object({
  id: RepoTreeObject.properties.id,
  name: RepoTreeObject.properties.name,
  type: RepoTreeObject.properties.type,
  path: Type.String(),
  mode: RepoTreeObject.properties.mode,
});

export const presentTreeEntry = (entry: TreeEntry): Static<typeof TreeObject4> =>
  Object.assign(presentTreeObject(entry), { path: entry.path });
