import { Type, type Static } from '@sinclair/typebox';
import type { NamespaceRow } from '../../../services/projects/types';
import { Namespace as NamespaceCommon, presentNamespace as presentNamespaceCommon } from '../../shared/entities/namespace';

/** GitLab 11's `Entities::Namespace`: with its name and full path (Forge has no subgroups: `parent_id` is null). */
export const Namespace = Type.Object({
  id: NamespaceCommon.properties.id,
  name: Type.String(),
  path: NamespaceCommon.properties.path,
  kind: NamespaceCommon.properties.kind,
  full_path: Type.String(),
  parent_id: Type.Null(),
});

export function presentNamespace(namespace: NamespaceRow): Static<typeof Namespace> {
  const common = presentNamespaceCommon(namespace);
  return { id: common.id, name: namespace.name, path: common.path, kind: common.kind, full_path: namespace.path, parent_id: null };
}
