import type { Selectable } from 'kysely';
import type { NamespacesTable } from '../../db/schema';

/** A row of `namespaces`: a user's own namespace or a group. Below projects and groups, which both live in one. */
export type NamespaceRow = Selectable<NamespacesTable>;
