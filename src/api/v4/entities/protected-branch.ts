import { Type, type Static } from '@sinclair/typebox';
import type { ProtectedBranch } from '../../../services/repository/protected-branches';

/** Who may push or merge: 0 no one, 30 developers and maintainers, 40 maintainers (GitLab 11's words). */
export const ACCESS_LEVEL_DESCRIPTIONS: Record<number, string> = { 0: 'No one', 30: 'Developers + Maintainers', 40: 'Maintainers' };

const AccessLevel = Type.Object({ access_level: Type.Integer(), access_level_description: Type.String() });

/** GitLab 9–11's `Entities::ProtectedBranch`. */
export const ProtectedBranch4 = Type.Object({
  name: Type.String(),
  push_access_levels: Type.Array(AccessLevel),
  merge_access_levels: Type.Array(AccessLevel),
});

const level = (developersToo: number, nobody: number) => {
  const accessLevel = nobody === 1 ? 0 : developersToo === 1 ? 30 : 40;
  return [{ access_level: accessLevel, access_level_description: ACCESS_LEVEL_DESCRIPTIONS[accessLevel] }];
};

export function presentProtectedBranch(rule: ProtectedBranch): Static<typeof ProtectedBranch4> {
  return {
    name: rule.name,
    push_access_levels: level(rule.developers_can_push, rule.nobody_can_push),
    merge_access_levels: level(rule.developers_can_merge, rule.nobody_can_merge),
  };
}
