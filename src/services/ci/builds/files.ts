import type { FileStore } from '../../../storage/index';

/*
 * Where a build's files live in the file store. Every file of a project sits under one prefix, so
 * removing a project removes them with one listing.
 */

export const projectFilesPrefix = (projectId: number): string => `builds/${projectId}/`;

export const traceKey = (build: { project_id: number; id: number }): string => `builds/${build.project_id}/${build.id}/trace.log`;

export const artifactsKey = (build: { project_id: number; id: number }): string => `builds/${build.project_id}/${build.id}/artifacts.zip`;

/** A job's JUnit report, as XML (a gzip upload is stored unpacked: it is read far more often than written). */
export const junitReportKey = (build: { project_id: number; id: number }): string => `builds/${build.project_id}/${build.id}/junit.xml`;

/** Removes every trace and artifacts file of a project (after the project's rows are gone). */
export async function removeProjectFiles(files: FileStore, projectId: number): Promise<void> {
  for (const key of await files.list(projectFilesPrefix(projectId))) await files.delete(key);
}
