import { Type, type Static } from '@sinclair/typebox';
import type { MilestoneRow } from '../../../services/milestones/milestones';
import { Nullable, Timestamp } from '../schemas';

/** GitLab 8.12's `Entities::ProjectEntity`: what issues, milestones (and merge requests) begin with. */
export const PROJECT_ENTITY_FIELDS = {
  id: Type.Integer(),
  iid: Type.Integer(),
  project_id: Type.Integer(),
  title: Type.String(),
  description: Nullable(Type.String()),
  state: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
};

/** GitLab 8.12's `Entities::Milestone`: the project entity's fields, then `due_date` (`YYYY-MM-DD`). */
export const Milestone = Type.Object({
  ...PROJECT_ENTITY_FIELDS,
  due_date: Nullable(Type.String()),
});

export function presentMilestone(milestone: MilestoneRow): Static<typeof Milestone> {
  return {
    id: milestone.id,
    iid: milestone.iid,
    project_id: milestone.project_id,
    title: milestone.title,
    description: milestone.description,
    state: milestone.state,
    created_at: milestone.created_at,
    updated_at: milestone.updated_at,
    due_date: milestone.due_date,
  };
}
