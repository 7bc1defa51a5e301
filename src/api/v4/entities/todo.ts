import { Type, type Static } from '@sinclair/typebox';
import type { TodoDetails } from '../../../services/todos/todos';
import { actionName } from '../../../services/todos/queries';
import { UserBasic, presentUserBasic } from '../../shared/entities/user';
import { Nullable, Timestamp } from '../../shared/schemas';
import type { Presenter } from '../../shared/types';
import { IssueBasic, presentIssueBasic } from './issue';
import { MergeRequestBasic, presentMergeRequestBasic } from './merge-request';
import { ProjectIdentity, presentProjectIdentity } from './project';

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
