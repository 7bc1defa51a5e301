import type { Services } from '../services/index';
import type { Project } from '../services/projects/types';
import type { ProjectStanding } from '../services/policy';

/** How many members and milestones a form offers (a project with more is searched through the API). */
const CHOICES = 100;

/** What an issue's or merge request's form offers: the project's members, open milestones, labels. */
export async function issuableChoices(services: Services, project: Project, standing: ProjectStanding) {
  const [members, milestones, labels] = await Promise.all([
    services.members.list(services.members.projectSource(project, standing), { offset: 0, limit: CHOICES, inherited: true }),
    services.milestones.list(project.id, { state: 'active' }, { offset: 0, limit: CHOICES }),
    services.labels.list(project.id, standing),
  ]);
  return {
    members: members.members.map((member) => member.user),
    milestones: milestones.milestones,
    labels: labels.map((label) => label.title),
  };
}

/** A form's optional id field: blank is none. */
export const formId = (value: string | undefined): number | null => (value && /^\d{1,9}$/.test(value) ? Number(value) : null);

/** A field a form may send once or many times (checkboxes). */
export const formList = (value: string | string[] | undefined): string[] => (value === undefined ? [] : ([] as string[]).concat(value));
