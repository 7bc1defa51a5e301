import type { Services } from '../services/index';
import type { Project } from '../services/projects/types';
import type { ProjectStanding } from '../services/policy';

/** Awards read to find the caller's own: a merge request with more is past any real review. */
const AWARDS_LOOKED_AT = 1000;

/** The caller's own award of `name` on the merge request, if they gave one. */
export async function ownAward(
  services: Services,
  project: Project,
  standing: ProjectStanding,
  userId: number,
  mergeRequestId: number,
  name: string,
) {
  const target = { kind: 'merge_request', id: mergeRequestId } as const;
  const { awards } = await services.awardEmoji.list(project, standing, target, { offset: 0, limit: AWARDS_LOOKED_AT });
  return awards.find((award) => award.user_id === userId && award.name === name);
}
