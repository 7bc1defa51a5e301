import assert from 'node:assert/strict';
import type { ApiClient } from './client';

type Fields = Record<string, unknown>;
/** A project by its id or by a record that has one, as the tests hold either. */
export type ProjectRef = number | { id: number };

const projectId = (project: ProjectRef) => (typeof project === 'number' ? project : project.id);

/** Creates a project through POST /projects as `client`; `fields` must name it. Fails the test unless it answers 201. */
export async function createProject(client: ApiClient, fields: Fields & { name: string }) {
  const response = await client.post('/projects', fields);
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body;
}

/** Creates an issue in `project` as `client`, titled 'an issue' unless `fields` say otherwise. Fails the test unless it answers 201. */
export async function createIssue(client: ApiClient, project: ProjectRef, fields: Fields = {}) {
  const response = await client.post(`/projects/${projectId(project)}/issues`, { title: 'an issue', ...fields });
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body;
}

/** Creates a private project snippet in `project` as `client`; `fields` override the defaults. Fails the test unless it answers 201. */
export async function createSnippet(client: ApiClient, project: ProjectRef, fields: Fields = {}) {
  const response = await client.post(`/projects/${projectId(project)}/snippets`, {
    title: 'a snippet',
    file_name: 'a.rb',
    code: 'puts 1',
    visibility_level: 0,
    ...fields,
  });
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body;
}
