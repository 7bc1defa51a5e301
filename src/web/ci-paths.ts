import type { Project } from '../services/projects/types';
import { projectPath } from './paths';

/** The CI pages' addresses, as GitLab 8.12 named them. */
export const pipelinesPath = (project: Project): string => `${projectPath(project)}/pipelines`;
export const pipelinePath = (project: Project, id: number): string => `${pipelinesPath(project)}/${id}`;
export const buildPath = (project: Project, id: number): string => `${projectPath(project)}/builds/${id}`;
export const commitPath = (project: Project, sha: string): string => `${projectPath(project)}/commit/${sha}`;
