import assert from 'node:assert/strict';
import type { TestApp } from './app';
import type { MergeRequestRow } from '../../src/services/merge-requests/types';

export interface NewMergeRequest {
  targetProjectId: number;
  /** Default: the target project. */
  sourceProjectId?: number;
  sourceBranch: string;
  targetBranch?: string;
  title?: string;
  description?: string;
  authorId: number;
}

/**
 * A merge request opened through `POST /projects/:source/merge_requests` by its author (the
 * administrator acting as them with `sudo`), answered as the database then holds it.
 */
export async function createMergeRequest(
  app: Pick<TestApp, 'root' | 'services' | 'ctx'>,
  request: NewMergeRequest,
): Promise<MergeRequestRow> {
  const sourceProjectId = request.sourceProjectId ?? request.targetProjectId;
  const created = await app.root.post(`/projects/${sourceProjectId}/merge_requests`, {
    source_branch: request.sourceBranch,
    target_branch: request.targetBranch ?? 'master',
    target_project_id: request.targetProjectId,
    title: request.title ?? `Merge ${request.sourceBranch}`,
    ...(request.description === undefined ? {} : { description: request.description }),
    sudo: request.authorId,
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return app.ctx.db.selectFrom('merge_requests').selectAll().where('id', '=', created.body.id).executeTakeFirstOrThrow();
}

/** The merge request as the database has it now. */
export function mergeRequestRow(app: TestApp, id: number): Promise<MergeRequestRow> {
  return app.ctx.db.selectFrom('merge_requests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
