import assert from 'node:assert/strict';
import type { ApiClient } from './client';
import { CALLERS, type Caller, type Secret, type SecretKind, type SecretSeeds } from './project-world';

export type Visibility = 'private' | 'internal' | 'public';
export const VISIBILITY_LEVELS: Record<Visibility, number> = { private: 0, internal: 10, public: 20 };

/** Whether a signed-in `caller` sees a project of that visibility at all (anonymous callers get 401 first). */
export function canSee(visibility: Visibility, caller: Exclude<Caller, 'anonymous'>): boolean {
  if (caller === 'non-member') return visibility !== 'private';
  return true;
}

export interface Rule {
  /** The least powerful caller allowed (default: anyone who sees the project). */
  minimum?: Caller;
  /** The status of an allowed call (default 200). */
  success?: number;
}

/**
 * The status `caller` gets from a project route, in GitLab's order of checks: a token, which every
 * API row asks (401), then the project's visibility (404, the project stays hidden), then the role (403).
 */
export function expectedStatus(visibility: Visibility, caller: Caller, { minimum = 'non-member', success = 200 }: Rule = {}): number {
  if (caller === 'anonymous') return 401;
  if (!canSee(visibility, caller)) return 404;
  return CALLERS.indexOf(caller) >= CALLERS.indexOf(minimum) ? success : 403;
}

export type Call = (client: ApiClient) => Promise<{ status: number }>;

/**
 * Makes the call as each caller in turn (in CALLERS order, least powerful first: a row may depend on
 * the one before, like unstarring what was starred) and asserts every status at once, so a failure
 * shows the whole row of the table.
 */
export async function assertAccess(
  clients: Partial<Record<Caller, ApiClient>>,
  call: Call,
  expected: (caller: Caller) => number,
  message?: string,
): Promise<void> {
  const actual: Partial<Record<Caller, number>> = {};
  const wanted: Partial<Record<Caller, number>> = {};
  for (const caller of CALLERS) {
    const client = clients[caller];
    if (!client) continue;
    actual[caller] = (await call(client)).status;
    wanted[caller] = expected(caller);
  }
  assert.deepEqual(actual, wanted, message);
}

/** GitLab's body for each refusal of a project route. */
export const REFUSALS: Readonly<Record<number, unknown>> = {
  401: { message: '401 Unauthorized' },
  403: { message: '403 Forbidden' },
  404: { message: '404 Project Not Found' },
};

/**
 * `download_code`, which every route that shows or copies a project's code asks (GitLab 8.12's
 * `fork_project` too): reporters and up of a private project; anyone signed in who sees a public or
 * internal one. A guest of a private project sees the project but not its code.
 */
export function codeReadStatus(visibility: Visibility, caller: Caller, success = 200): number {
  return expectedStatus(visibility, caller, { minimum: visibility === 'private' ? 'reporter' : 'non-member', success });
}

export interface AccessProject {
  id: number;
  clients: Partial<Record<Caller, ApiClient>>;
}

/**
 * `assertAccess` on each project given (by its visibility), each caller expecting `expected`'s
 * status, and then GitLab's body for every refusal the route answered.
 */
export async function assertRouteAccess(
  projects: Partial<Record<Visibility, AccessProject>>,
  call: (client: ApiClient, projectId: number) => Promise<{ status: number; body?: unknown }>,
  expected: (visibility: Visibility, caller: Caller) => number,
): Promise<void> {
  for (const [visibility, project] of Object.entries(projects) as [Visibility, AccessProject][]) {
    const refusals: { status: number; body?: unknown }[] = [];
    const recording = async (client: ApiClient) => {
      const response = await call(client, project.id);
      if (response.status in REFUSALS) refusals.push(response);
      return response;
    };
    await assertAccess(project.clients, recording, (caller) => expected(visibility, caller), `${visibility} project`);
    for (const { status, body } of refusals)
      assert.deepEqual(body, REFUSALS[status], `the body of a ${status} from a ${visibility} project`);
  }
}

/** `assertRouteAccess` for a route that shows code (`download_code`). */
export function assertCodeAccess(
  projects: Partial<Record<Visibility, AccessProject>>,
  call: (client: ApiClient, projectId: number) => Promise<{ status: number; body?: unknown }>,
  success = 200,
): Promise<void> {
  return assertRouteAccess(projects, call, (visibility, caller) => codeReadStatus(visibility, caller, success));
}

/** The callers of the secrets sweep: every `Caller`, and those a confidential issue or an access request tells apart. */
export type Reader = Caller | 'requester' | 'author' | 'assignee';

/**
 * Whether `reader` may read a secret of `kind` in a project of `visibility` (`seedSecrets`), by the
 * rule the API answers with: a confidential issue is its project's reporters' and up, its author's
 * and its assignee's (both guests here); a private snippet its project's members'; a merge request,
 * and the code it shows, everyone's who reads the project, but in a private project reporters' and
 * up only (GitLab 8.12 let guests read them; later GitLab closed that). Anonymous callers get 401
 * in v3; in v4 (`anonymousReads`) they read what anyone reads of a public project.
 */
export function maySee(kind: SecretKind, visibility: Visibility, reader: Reader, anonymousReads = false): boolean {
  const member = ['guest', 'author', 'assignee', 'reporter', 'developer', 'master', 'owner', 'admin'].includes(reader);
  const reporter = ['reporter', 'developer', 'master', 'owner', 'admin'].includes(reader);
  if (reader === 'anonymous') return anonymousReads && visibility === 'public' && kind === 'merge_request';
  switch (kind) {
    case 'confidential':
      return reporter || reader === 'author' || reader === 'assignee';
    case 'snippet':
      return member;
    case 'merge_request':
      return visibility === 'private' ? reporter : true;
  }
}

export interface SweptProject {
  visibility: Visibility;
  id: number;
  seeds: SecretSeeds;
}

/** The value of a path parameter outside a project's routes (a user's or a group's id), if the sweep has one. */
export type Others = (template: string, name: string) => string | undefined;

/** What a path parameter names in a project with secrets (anything else: `1`, which may name nothing). */
function pathValue(template: string, name: string, project: SweptProject | undefined, others: Others): string {
  const segments = template.split('/');
  const at = segments.indexOf(`{${name}}`);
  const previous = segments[at - 1];
  const seeds = project?.seeds;
  if (name === 'id' && project) return String(project.id);
  if (!seeds) return others(template, name) ?? '1';
  const noteable = previous === 'notes' ? segments[at - 3] : previous;
  const byNoteable = (kind: string | undefined, ids: { issues: number; snippets: number; merge_requests: number }) =>
    String(kind === 'issues' ? ids.issues : kind === 'snippets' ? ids.snippets : ids.merge_requests);
  // v4 names issues and merge requests by iid, the parents of their notes and award emoji too.
  const v4 = template.startsWith('/api/v4/');
  const issue = v4 ? seeds.issueIid : seeds.issueId;
  const mergeRequest = v4 ? seeds.mergeRequestIid : seeds.mergeRequestId;
  switch (name) {
    case 'issue_iid':
      return String(seeds.issueIid);
    case 'merge_request_iid':
      return String(seeds.mergeRequestIid);
    case 'branch':
      return encodeURIComponent(seeds.branch);
    case 'file_path':
      return 'secret.txt';
    case 'label_id':
      return encodeURIComponent(`label-${project!.visibility}`);
    case 'issue_id':
      return String(seeds.issueId);
    case 'snippet_id':
      return String(seeds.snippetId);
    case 'merge_request_id':
      return String(seeds.mergeRequestId);
    case 'milestone_id':
      return String(seeds.milestoneId);
    case 'noteable_id':
    case 'awardable_id':
      return byNoteable(previous, { issues: issue, snippets: seeds.snippetId, merge_requests: mergeRequest });
    case 'note_id':
      return byNoteable(noteable, { issues: seeds.issueNoteId, snippets: seeds.snippetNoteId, merge_requests: seeds.mergeRequestNoteId });
    case 'sha':
      return seeds.sha;
    case '*':
      if (previous === 'artifacts') return `${seeds.branch}/download`;
      return previous === 'branches' ? encodeURIComponent(seeds.branch) : seeds.branch;
    case 'format':
      return 'zip';
    default:
      return others(template, name) ?? '1';
  }
}

/** Whether a query parameter's schema takes `value` (v4's job scopes have no `all`). */
function accepts(schema: any, value: string): boolean {
  if (!schema) return true;
  if (schema.anyOf) return schema.anyOf.some((option: any) => accepts(option, value));
  if (schema.enum) return schema.enum.includes(value);
  if (schema.const !== undefined) return schema.const === value;
  if (schema.type === 'array') return accepts(schema.items, value);
  return true;
}

/** Query parameters a GET route declares, filled so that its answer reaches the seeded secrets. */
function queryFor(parameters: Array<{ name: string; schema?: unknown }>, seeds: SecretSeeds | undefined): string {
  const values: Record<string, string> = {
    per_page: '100',
    ref_name: seeds?.branch ?? 'master',
    ref: seeds?.branch ?? 'master',
    file_path: 'secret.txt',
    filepath: 'secret.txt',
    from: 'master',
    to: seeds?.branch ?? 'master',
    scope: 'all',
    state: 'all',
  };
  const query = parameters
    .filter(({ name, schema }) => values[name] !== undefined && accepts(schema, values[name]))
    .map(({ name }) => `${name}=${encodeURIComponent(values[name])}`);
  return query.length > 0 ? `?${query.join('&')}` : '';
}

/** One GET request of the sweep: the path to ask and the project it names, if any. */
export interface SweepRequest {
  path: string;
  project?: SweptProject;
}

/**
 * Every GET route of the OpenAPI document under `prefix` (`/api/v3`, `/api/v4`), with its path
 * parameters filled: a route under `/projects/{id}` once per project, with that project's seeded
 * ids; any other once, with `others` or `1`.
 */
export function sweepRequests(document: any, projects: SweptProject[], others: Others, prefix = '/api/v3'): SweepRequest[] {
  const requests: SweepRequest[] = [];
  for (const [template, item] of Object.entries<any>(document.paths)) {
    if (!item.get || !template.startsWith(`${prefix}/`)) continue;
    const parameters: any[] = item.get.parameters ?? [];
    const query = (seeds?: SecretSeeds) =>
      queryFor(
        parameters.filter((p) => p.in === 'query'),
        seeds,
      );
    const fill = (project?: SweptProject) =>
      template.replace(/\{([^}]+)\}/g, (_, name: string) => pathValue(template, name, project, others));
    if (template.startsWith(`${prefix}/projects/{id}`)) {
      for (const project of projects) requests.push({ path: fill(project) + query(project.seeds), project });
    } else requests.push({ path: fill() + query() });
  }
  return requests;
}

/** One answer of the sweep. */
export interface Answer {
  reader: Reader;
  path: string;
  status: number;
}

/** A secret some reader was shown but may not see. */
export interface Leak {
  reader: Reader;
  path: string;
  status: number;
  secret: Secret;
}

/**
 * Sends every request as every reader (a few at a time) and returns each secret shown to a reader
 * who may not see it, every secret nobody was shown (a sweep that reaches nothing proves nothing),
 * and every answer that is a 5xx (a refusal that fails is no refusal).
 */
export async function sweepForSecrets(
  readers: Partial<Record<Reader, ApiClient>>,
  requests: SweepRequest[],
  secrets: Secret[],
  visibilityOf: (projectId: number) => Visibility,
  { concurrency = 8, anonymousReads = false }: { concurrency?: number; anonymousReads?: boolean } = {},
): Promise<{ leaks: Leak[]; unseen: Secret[]; failures: string[]; answers: Answer[] }> {
  const leaks: Leak[] = [];
  const answers: Answer[] = [];
  const failures: string[] = [];
  const seen = new Set<string>();
  const calls = Object.entries(readers).flatMap(([reader, client]) =>
    requests.map((request) => ({ reader: reader as Reader, client: client!, request })),
  );
  let next = 0;
  const worker = async () => {
    while (next < calls.length) {
      const { reader, client, request } = calls[next++];
      const response = await client.raw('GET', request.path);
      answers.push({ reader, path: request.path, status: response.status });
      if (response.status >= 500) failures.push(`${reader}: ${response.status} GET ${request.path}`);
      for (const secret of secrets) {
        if (!response.text.includes(secret.text)) continue;
        seen.add(secret.text);
        if (!maySee(secret.kind, visibilityOf(secret.projectId), reader, anonymousReads))
          leaks.push({ reader, path: request.path, status: response.status, secret });
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { leaks, unseen: secrets.filter((secret) => !seen.has(secret.text)), failures, answers };
}
