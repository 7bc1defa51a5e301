import { Type, type Static } from '@sinclair/typebox';
import type { LabelView } from '../../../services/labels/labels';
import type { LabelRow } from '../../../services/labels/rules';
import { Nullable, Timestamp } from './common';

/** GitLab 8.12's `Entities::Label`: a label by its name, with counts for the caller. */
export const Label = Type.Object({
  name: Type.String(),
  color: Type.String(),
  description: Nullable(Type.String()),
  open_issues_count: Type.Integer(),
  closed_issues_count: Type.Integer(),
  open_merge_requests_count: Type.Integer(),
  subscribed: Type.Boolean(),
});

export function presentLabel(label: LabelView): Static<typeof Label> {
  return {
    name: label.title,
    color: label.color,
    description: label.description,
    open_issues_count: label.open_issues_count,
    closed_issues_count: label.closed_issues_count,
    open_merge_requests_count: label.open_merge_requests_count,
    subscribed: label.subscribed,
  };
}

/**
 * The removed label as 8.12 answered a DELETE: the record itself, every column of its `labels`
 * table in order. `template` and `priority` are columns Forge does not keep (no label templates,
 * no priorities): they read as 8.12's values for a project's label that has neither.
 */
export const LabelRecord = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  color: Type.String(),
  project_id: Type.Integer(),
  created_at: Timestamp,
  updated_at: Timestamp,
  template: Type.Boolean(),
  description: Nullable(Type.String()),
  priority: Type.Null(),
});

export function presentLabelRecord(label: LabelRow): Static<typeof LabelRecord> {
  return {
    id: label.id,
    title: label.title,
    color: label.color,
    project_id: label.project_id,
    created_at: label.created_at,
    updated_at: label.updated_at,
    template: false,
    description: label.description,
    priority: null,
  };
}
