import { Type, type Static } from '@sinclair/typebox';
import type { NamespaceRow } from '../../../services/projects/types';

/** GitLab 8.12's `Entities::Namespace`: what v3 answers, and the part of v4's it shares. */
export const Namespace = Type.Object({
  id: Type.Integer(),
  path: Type.String(),
  kind: Type.Union([Type.Literal('user'), Type.Literal('group')]),
});

export function presentNamespace(namespace: NamespaceRow): Static<typeof Namespace> {
  return { id: namespace.id, path: namespace.path, kind: namespace.kind === 'group' ? 'group' : 'user' };
}
