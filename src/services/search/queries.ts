import type { Db } from '../../db/index';
import type { ProjectRow } from '../projects/types';
import { codeProjectIds } from '../policy-reads';
import type { Caller } from '../policy';

/** The projects whose code the caller reads (`download_code`), most recently active first: the ones code search looks in. */
export function codeSearchProjects(db: Db, caller: Caller, limit: number): Promise<ProjectRow[]> {
  return db
    .selectFrom('projects')
    .selectAll('projects')
    .where('projects.id', 'in', codeProjectIds(db, caller))
    .orderBy('projects.last_activity_at', 'desc')
    .orderBy('projects.id', 'desc')
    .limit(limit)
    .execute();
}
