import { Type, type Static } from '@sinclair/typebox';
import type { TodoDetails } from '../../../services/todos/todos';
import { actionName } from '../../../services/todos/records';
import { BasicProjectDetails, presentBasicProject } from './project';
import { UserBasic, presentUserBasic } from '../../shared/entities/user';
import { Issue, presentIssue } from './issue';
import { MergeRequest, presentMergeRequest } from './merge-request';
import { Nullable, Timestamp, type Presenter } from './common';

export const Todo = Type.Object({
  id: Type.Integer(),
  project: BasicProjectDetails,
  author: Nullable(UserBasic),
  action_name: Type.String(),
  target_type: Type.String(),
  target: Type.Union([Issue, MergeRequest]),
  target_url: Type.String(),
  body: Type.String(),
  state: Type.String(),
  created_at: Timestamp,
});

/** GitLab 8.12's `Entities::Todo`: the target in full, its URL (to the note when it came from one), the note's text or the target's title. */
export function presentTodo(details: TodoDetails, presenter: Presenter): Static<typeof Todo> {
  const { todo } = details;
  const target =
    details.target.type === 'MergeRequest'
      ? presentMergeRequest(details.target.details, presenter)
      : presentIssue(details.target.details, presenter);
  return {
    id: todo.id,
    project: presentBasicProject(details.project, presenter),
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
