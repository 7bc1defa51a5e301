import { Type, type Static } from '@sinclair/typebox';
import type { LabelView } from '../../../services/labels/labels';
import { Nullable } from '../../shared/schemas';

/** GitLab v4's `Entities::Label`: 8.12's with the label's id and priority (Forge keeps no priorities). */
export const Label = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  color: Type.String(),
  description: Nullable(Type.String()),
  open_issues_count: Type.Integer(),
  closed_issues_count: Type.Integer(),
  open_merge_requests_count: Type.Integer(),
  priority: Type.Null(),
  subscribed: Type.Boolean(),
});

export function presentLabel(label: LabelView): Static<typeof Label> {
  return {
    id: label.id,
    name: label.title,
    color: label.color,
    description: label.description,
    open_issues_count: label.open_issues_count,
    closed_issues_count: label.closed_issues_count,
    open_merge_requests_count: label.open_merge_requests_count,
    priority: null,
    subscribed: label.subscribed,
  };
}
