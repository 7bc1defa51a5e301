import assert from 'node:assert/strict';
import type { ApiClient } from './client';

/** What a project's CI looks like through the consumer API, for tests that walk a pipeline. */

/** The project's one pipeline. */
export async function onlyPipeline(client: ApiClient, projectId: number): Promise<any> {
  const list = await client.get(`/projects/${projectId}/pipelines`);
  assert.equal(list.status, 200);
  assert.equal(list.body.length, 1);
  return list.body[0];
}

/** The project's builds by name (the latest of each name: the list is newest first). */
export async function buildsByName(client: ApiClient, projectId: number): Promise<Record<string, any>> {
  const list = await client.get(`/projects/${projectId}/builds`);
  assert.equal(list.status, 200);
  return Object.fromEntries([...list.body].reverse().map((build: any) => [build.name, build]));
}

/** Each build's status by name. */
export async function buildStatuses(client: ApiClient, projectId: number): Promise<Record<string, string>> {
  return Object.fromEntries(Object.entries(await buildsByName(client, projectId)).map(([name, build]) => [name, build.status]));
}
