import type { FastifyRequest } from 'fastify';
import type { Services } from '../../services/index';
import type { NoteableKind } from '../../services/notes/noteables';

/**
 * The global id of the issue, merge request or snippet a v4 path names: issues and merge requests
 * by their `iid` in the project (404 when none, or when the caller may not read that issue), snippets by id.
 */
export function noteableIdResolver({ issues, mergeRequests }: Services) {
  return async (request: FastifyRequest, kind: NoteableKind, number?: number): Promise<number> => {
    const given = number ?? (request.params as { noteable_id: number }).noteable_id;
    if (kind === 'issues') return issues.idByIid(request.project, request.standing, given);
    if (kind === 'merge_requests') return mergeRequests.idByIid(request.project, given);
    return given;
  };
}
