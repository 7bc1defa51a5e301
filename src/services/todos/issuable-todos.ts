import type { IssueTodos } from '../issues/types';
import type { MergeRequestTodos } from '../merge-requests/types';
import { issueCreatedTodos, issueUpdatedTodos } from './issue-todos';
import { mergeRequestCreatedTodos, mergeRequestFinishedTodos, mergeRequestUpdatedTodos } from './merge-request-todos';
import { buildFailedTodos, buildFailedTodosDone } from './merge-request-ci-todos';

/** What issues ask of todos; the composition root hands it to them (issues never import todos). */
export const issueTodos: IssueTodos = { created: issueCreatedTodos, updated: issueUpdatedTodos };

/** What merge requests and their pipelines ask of todos; handed to them as `issueTodos` is to issues. */
export const mergeRequestTodos: MergeRequestTodos = {
  created: mergeRequestCreatedTodos,
  updated: mergeRequestUpdatedTodos,
  finished: mergeRequestFinishedTodos,
  buildFailed: buildFailedTodos,
  buildFailedDone: buildFailedTodosDone,
};
