import { Type, type Static } from '@sinclair/typebox';
import type { TodoDetails } from '../../../services/todos/todos';
import type { Project } from '../../../services/projects/types';
import { actionName } from '../../../services/todos/queries';
import { UserBasic, presentUserBasic } from '../../shared/entities/user';
import { Nullable, Timestamp } from '../../shared/schemas';
import type { Presenter } from '../../shared/types';
import { IssueBasic, presentIssueBasic } from './issue';
import { MergeRequestBasic, presentMergeRequestBasic } from './merge-request';

/** GitLab v4's `Entities::ProjectIdentity`: the project a todo belongs to. */
export const ProjectIdentity = Type.Object({
  id: Type.Integer(),
  description: Nullable(Type.String()),
  name: Type.String(),
  name_with_namespace: Type.String(),
  path: Type.String(),
  path_with_namespace: Type.String(),
  created_at: Timestamp,
});

function presentProjectIdentity(project: Project): Static<typeof ProjectIdentity> {
  return {
    id: project.id,
    description: project.description,
    name: project.name,
    name_with_namespace: `${project.namespace.name} / ${project.name}`,
    path: project.path,
    path_with_namespace: `${project.namespace.path}/${project.path}`,
    created_at: project.created_at,
  };
}

/** GitLab v4's `Entities::Todo`: the target as the lists show it, its URL (to the note when it came from one), the note's text or the target's title. */
export const Todo = Type.Object({
  id: Type.Integer(),
  project: ProjectIdentity,
  author: Nullable(UserBasic),
  action_name: Type.String(),
  target_type: Type.String(),
  target: Type.Union([IssueBasic, MergeRequestBasic]),
  target_url: Type.String(),
  body: Type.String(),
  state: Type.String(),
  created_at: Timestamp,
});

export function presentTodo(details: TodoDetails, presenter: Presenter): Static<typeof Todo> {
  const { todo } = details;
  const target =
    details.target.type === 'MergeRequest'
      ? presentMergeRequestBasic(details.target.details, presenter)
      : presentIssueBasic(details.target.details, presenter);
  return {
    id: todo.id,
    project: presentProjectIdentity(details.project),
    author: details.author ? presentUserBasic(details.author, presenter) : null,
    action_name: actionName(todo.action) ?? String(todo.action),
    target_type: todo.target_type,
    target,
    target_url: todo.note_id === null ? target.web_url : `${target.web_url}#note_${todo.note_id}`,
    body: details.noteText ?? target.title,
    state: todo.state,
    created_at: todo.created_at,
  };
}
