import { Type, type Static } from '@sinclair/typebox';
import type { TreeEntry } from '../../../git/tree';

/** `type` is `tree`, `blob`, or `commit` for a submodule; `mode` is octal, six characters (`040000`). */
export const RepoTreeObject = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.String(),
  mode: Type.String(),
});

export function presentTreeObject(entry: TreeEntry): Static<typeof RepoTreeObject> {
  return { id: entry.id, name: entry.name, type: entry.type, mode: entry.mode };
}
