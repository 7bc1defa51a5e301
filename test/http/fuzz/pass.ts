/**
 * A seeded fuzz pass over every operation of the OpenAPI document (`/api/v3/openapi.json`) and
 * over git's smart HTTP: hostile path, query and body values, lying content types, broken
 * multipart and pkt-line bodies, as root, as a normal user and anonymously. No answer may be a
 * 5xx, none may hang, and every JSON answer of `/api/v3` must parse. Root's projects hold what the
 * normal user may not read (a confidential issue, a private snippet, a private project's merge
 * request where she is a guest, notes on them): no answer to her or to an anonymous caller may
 * show their text.
 *
 * The routes are dealt to shards (`shard-N.test.ts`), each a test file with a server and seeded
 * data of its own: the whole pass is some 11,000 requests, and one file sending them all came
 * close to the suite's per-file time limit on a busy machine. The same seed sends the same
 * requests however they are dealt. v4's document (`/api/v4/openapi.json`, no git HTTP) has shards
 * of its own (`shard-v4-N.test.ts`) over the same seeded world; there anonymous callers are asked
 * for the secrets too, since v4 shows them public projects.
 *
 * Widen it by hand: `FUZZ_SEED=7 FUZZ_ROUNDS=5 npm run fuzz`; replay one route with
 * `FUZZ_ONLY='repository/files'` (a regular expression over "METHOD /template").
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import { Writable } from 'node:stream';
import { startApp, type TestApp } from '../../support/app';
import { cloneUrl, commit, git, workTree } from '../../support/git';
import { seedCommit } from '../../support/repo';
import { eventually } from '../../support/eventually';
import { publicKeys } from '../../fixtures/ssh-keys';
import {
  bodyFieldValues,
  longString,
  PAGE_VALUES,
  pathSegments,
  queryValues,
  rawBodies,
  Rng,
  sizeLabel,
  type RawBody,
} from '../../support/fuzz-values';

const SEED = Number(process.env.FUZZ_SEED ?? 20240917);
const ROUNDS = Math.max(1, Number(process.env.FUZZ_ROUNDS ?? 1));
const ONLY = process.env.FUZZ_ONLY ? new RegExp(process.env.FUZZ_ONLY) : undefined;
/** An answer that takes longer is a hang. */
const TIMEOUT_MS = 10_000;
const CONCURRENCY = 6;
const SLOW_MS = 2_000;
const MAX_IN_FLIGHT = 24;
const PER_ROUTE = 2;
/** Seeded branches `fuzz-0` … that writes are spread over. */
const SPREAD_BRANCHES = 6;

type Identity = 'root' | 'user' | 'anonymous';
type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  items?: Schema;
  enum?: unknown[];
  nullable?: boolean;
};

interface Operation {
  method: string;
  template: string;
  pathParams: string[];
  queryParams: Array<{ name: string; schema: Schema; required: boolean }>;
  body?: Schema;
}

interface Probe {
  op: Operation;
  identity: Identity;
  url: string;
  /** What is hostile about this request, in a few words. */
  input: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Then ask again on the same kept-alive connection: the answer must not leave it unusable. */
  reuse?: boolean;
}

interface Finding {
  probe: Probe;
  outcome: string;
  /** What the server logged when the request was replayed alone. */
  cause?: string;
}

/** The seeded data the fuzz aims at, so that ids resolve and deeper code runs. */
interface World {
  alice: { id: number; username: string; token: string };
  bob: { id: number; username: string };
  group: { id: number; path: string };
  publicProject: { id: number; path: string };
  privateProject: { id: number; path: string };
  sha: string;
  systemHook: number;
  projectHook: number;
  /** Bob's key and email (root reaches them under /users/:id); root's own (under /user). */
  key: number;
  email: number;
  rootKey: number;
  rootEmail: number;
  /** A deploy key of the public project. */
  deployKey: number;
  broadcast: number;
  issue: number;
  milestone: number;
  label: number;
  snippet: number;
  trigger: string;
  runner: number;
  build: number;
  environment: number;
  /** A merge request from `feature/x` into master. */
  mergeRequest: number;
  /** v4 names issues and merge requests by iid, triggers by id, and asks for a pipeline's and a merge request version's id. */
  issueIid: number;
  mergeRequestIid: number;
  mergeRequestVersion: number;
  pipeline: number;
  triggerId: number;
  /** A note on the issue, one on the snippet and one on the merge request. */
  notes: Record<'issues' | 'snippets' | 'merge_requests', number>;
  /** Bob's award on the issue. */
  award: number;
  /** What alice may not read, and where. */
  secrets: SecretSeeds;
}

/** Root's projects with what alice may not read: she is a non-member of the first (public), a guest of the second (private). */
interface SecretSeeds {
  texts: string[];
  projects: Array<{
    id: number;
    issue?: number;
    issueIid?: number;
    issueNote?: number;
    snippet?: number;
    snippetNote?: number;
    mergeRequest?: number;
    mergeRequestIid?: number;
    mergeRequestNote?: number;
  }>;
}

/** The server's error log lines, in order: a failing request replayed alone names its cause. */
class ServerErrorLog extends Writable {
  readonly causes: string[] = [];
  private rest = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    const lines = (this.rest + chunk.toString()).split('\n');
    this.rest = lines.pop() ?? '';
    for (const line of lines) {
      if (!/"level":[56]0/.test(line)) continue;
      const entry = JSON.parse(line);
      this.causes.push(shorten((entry.err?.message ?? entry.msg ?? '').split('\n')[0]));
    }
    done();
  }
}

let app: TestApp;
let world: World;
let serverErrors: ServerErrorLog;
const findings: Finding[] = [];
const answered = new Map<Probe, number>();
let sent = 0;
let elapsedMs = 0;
let seededMs = 0;
/** With FUZZ_PROFILE set, each route's total answer time is printed, slowest first: where a shard's time goes. */
const PROFILE = process.env.FUZZ_PROFILE !== undefined;
const spentMs = new Map<string, number>();
/** The API version whose document this process fuzzes. */
let api: 'v3' | 'v4' = 'v3';

/**
 * Registers the fuzz tests of the routes dealt to shard `shard` (from 1) of `shards`, of the
 * OpenAPI document of `version` (git's smart HTTP and LFS are in v3's document only).
 */
export function fuzzShard(shard: number, shards: number, version: 'v3' | 'v4' = 'v3'): void {
  api = version;
  const dealt = (op: Operation) => shardOf(op, shards) === shard - 1;

  before(async () => {
    serverErrors = new ServerErrorLog();
    app = await startApp({}, serverErrors);
    const seeding = Date.now();
    world = await seed(app);
    seededMs = Date.now() - seeding;
    const document = await app.root.get(`/api/${api}/openapi.json`);
    assert.equal(document.status, 200);
    const operations = operationsOf(document.body);
    const rng = new Rng(SEED);
    // Every probe is made, in one order, before the shard's are kept: the seeded values stay the same.
    const probes = [
      ...operations.flatMap((op) => probesFor(op, rng)),
      ...(api === 'v3' ? [...gitProbes(operations, rng), ...lfsProbes(operations)] : []),
      ...secretProbes(operations),
    ].filter((probe) => dealt(probe.op) && (!ONLY || ONLY.test(`${probe.op.method} ${probe.op.template}`)));
    const started = Date.now();
    // A phase is a barrier: the DELETEs start once everything else has answered.
    for (const current of [0, 1, 2, 3]) {
      const found = findings.length;
      await runAll(probes.filter((probe) => phase(probe.op) === current));
      await explain(findings.slice(found));
    }
    elapsedMs = Date.now() - started;
    sent = probes.length;
  });

  after(async () => {
    // A request the server never answers must not hold up the rest of the suite.
    await Promise.race([app?.close(), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
  });

  describe(`fuzz, shard ${shard} of ${shards}: routes of the ${api} OpenAPI document${api === 'v3' ? ' and git smart HTTP' : ''}`, () => {
    test('the seeded data resolves: most plain requests as root answer 2xx', { skip: ONLY !== undefined }, () => {
      const plain = [...answered].filter(([probe]) => probe.input === 'plain' && probe.identity === 'root' && probe.op.method === 'GET');
      const ok = plain.filter(([, status]) => status < 300);
      assert.ok(plain.length > 20, `only ${plain.length} plain GETs were sent`);
      assert.ok(
        ok.length >= plain.length * 0.8,
        `only ${ok.length} of ${plain.length} plain GETs as root answered 2xx:\n${plain
          .filter(([, s]) => s >= 300)
          .map(([p, s]) => `  ${s} GET ${p.url}`)
          .join('\n')}`,
      );
    });

    test('the secrets are asked for: alice reads the projects that hold them', { skip: ONLY !== undefined }, () => {
      const asked = [...answered].filter(([probe]) => probe.input === SECRET_INPUT);
      assert.ok(asked.length > 20, `only ${asked.length} requests for the secrets were sent`);
      assert.ok(
        asked.filter(([, status]) => status === 200).length >= 3,
        `alice read too little of root's projects:\n${asked.map(([p, s]) => `  ${s} GET ${p.url}`).join('\n')}`,
      );
    });

    test('no request answers 5xx, hangs, or sends JSON that does not parse, nor shows a secret to alice or an anonymous caller', () => {
      process.stdout.write(
        `# fuzz ${api} shard ${shard} of ${shards}: seeded in ${(seededMs / 1000).toFixed(1)} s, ${sent} requests in ${(elapsedMs / 1000).toFixed(1)} s (FUZZ_SEED=${SEED} FUZZ_ROUNDS=${ROUNDS})\n`,
      );
      if (PROFILE)
        for (const [route, ms] of [...spentMs].sort(([, a], [, b]) => b - a).slice(0, 15))
          process.stdout.write(`#   ${(ms / 1000).toFixed(1)} s  ${route}\n`);
      if (findings.length > 0) assert.fail(report(findings));
    });
  });
}

/** A route's shard, from its method and template alone, so that every process deals alike. */
function shardOf(op: Operation, shards: number): number {
  let hash = 0;
  for (const char of `${op.method} ${op.template}`) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return (hash >>> 0) % shards;
}

// ---------------------------------------------------------------------------------------------
// The document

function operationsOf(document: any): Operation[] {
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries<any>(document.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      const parameters: any[] = operation.parameters ?? [];
      operations.push({
        method: method.toUpperCase(),
        template,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: parameters
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: p.schema ?? {}, required: p.required === true })),
        body: operation.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return operations;
}

/** git's smart HTTP and LFS (v4's document has OAuth's routes outside `/api` too). */
const isGit = (op: Operation) =>
  !op.template.startsWith('/api/') && !op.template.startsWith('/ci/api/') && !op.template.startsWith('/oauth/');

/** Reads first, then writes, then the writes that move or hide the seeded data, DELETEs last. */
function phase(op: Operation): number {
  if (isGit(op) || op.method === 'GET') return 0;
  if (op.method === 'DELETE') return 3;
  if (/\/(archive|block|transfer)$|^\/api\/v\d\/groups\/\{id\}\/projects\/|^\/api\/v\d\/projects\/\{id\}$/.test(op.template)) return 2;
  return 1;
}

// ---------------------------------------------------------------------------------------------
// Real values: what each path parameter names in the seeded world

function realValues(template: string, name: string): string[] {
  const segments = template.split('/');
  const at = segments.findIndex((segment) => segment.includes(`{${name}}`));
  const previous = segments[at - 1] ?? '';
  const { alice, bob, group, publicProject, privateProject, sha } = world;
  if (name === 'namespace') return [alice.username];
  if (template.startsWith('/api/v4/')) {
    const value = realV4Value(name, previous);
    if (value) return value;
  }
  if (name === 'project') return [`${publicProject.path.split('/')[1]}.git`, privateProject.path.split('/')[1]];
  if (name === 'format') return ['zip', 'tar.gz'];
  switch (previous) {
    case 'members':
      // Alice is the group's member, bob the public project's.
      if (/^\/api\/v\d\/groups\//.test(template)) return [String(alice.id), alice.username];
      return [String(bob.id), bob.username];
    case 'users':
    case 'user':
    case 'access_requests':
      return [String(bob.id), bob.username];
    case 'projects':
    case 'fork':
      return [String(publicProject.id), String(privateProject.id), encodeURIComponent(publicProject.path)];
    case 'groups':
    case 'share':
      return [String(group.id), group.path];
    case 'hooks':
      return [String(name === 'hook_id' ? world.projectHook : world.systemHook)];
    case 'keys':
      if (/^\/api\/v\d\/user\//.test(template)) return [String(world.rootKey)];
      if (/^\/api\/v\d\/projects\//.test(template)) return [String(world.deployKey)];
      return [String(world.key)];
    case 'deploy_keys':
      return [String(world.deployKey)];
    case 'emails':
      return [String(/^\/api\/v\d\/user\//.test(template) ? world.rootEmail : world.email)];
    case 'broadcast_messages':
      return [String(world.broadcast)];
    case 'variables':
      return ['FUZZ_VAR'];
    case 'commits':
    case 'blobs':
    case 'raw_blobs':
    case 'statuses':
      return [sha, 'master'];
    case 'branches':
      return ['master', 'feature%2Fx', 'feature/x'];
    case 'tags':
      return ['v1.0'];
    case 'licenses':
      return ['mit'];
    case 'gitignores':
      return ['Node'];
    case 'gitlab_ci_ymls':
      return ['Ruby'];
    case 'search':
      return ['fuzz'];
    case 'issues':
      return [String(world.issue)];
    case 'merge_requests':
    case 'merge_request':
      return [String(world.mergeRequest)];
    case 'milestones':
      return [String(world.milestone)];
    case 'labels':
      return [String(world.label)];
    case 'snippets':
      return [String(world.snippet)];
    case 'triggers':
      return [world.trigger];
    case 'runners':
      return [String(world.runner)];
    case 'builds':
      return [String(world.build)];
    case 'environments':
      return [String(world.environment)];
    case 'award_emoji':
      return [String(world.award)];
    case 'notes': {
      const noteable = segments[at - 3];
      // A note of a discussion: the plain note that is the discussion `realV4Value` names.
      if (noteable === 'discussions') return [String(world.notes.merge_requests)];
      return noteable === 'issues' || noteable === 'snippets' || noteable === 'merge_requests' ? [String(world.notes[noteable])] : ['1'];
    }
    default:
      return ['1'];
  }
}

/** What v4 names differently from v3: issues and merge requests by iid, files by their URL-encoded path, and more. */
function realV4Value(name: string, previous: string): string[] | undefined {
  switch (previous) {
    case 'issues':
      return [String(world.issueIid)];
    case 'merge_requests':
      return [String(world.mergeRequestIid)];
    case 'versions':
      return [String(world.mergeRequestVersion)];
    case 'files':
      return ['README.md', 'docs%2Fa.md'];
    case 'artifacts':
      return ['master/download', 'feature/x/download'];
    case 'jobs':
      return [String(world.build)];
    case 'pipelines':
      return [String(world.pipeline)];
    case 'triggers':
      return [String(world.triggerId)];
    case 'protected_branches':
      return ['master'];
    case 'namespaces':
      return [String(world.group.id), world.group.path];
    case 'share':
      return [String(world.group.id)];
    case 'dockerfiles':
      return ['Binary'];
    case 'labels':
      return ['fuzz'];
    case 'discussions':
      // A plain note is a discussion of its own, named by the digest of its id (as GitLab names it).
      return [crypto.hash('sha1', `note_${world.notes.merge_requests}`, 'hex')];
  }
  return name === 'user_id' && previous === 'user' ? [String(world.bob.id)] : undefined;
}

function fill(op: Operation, overrides: Record<string, string> = {}): string {
  return op.template.replace(/\{([^}]+)\}/g, (_, name: string) => overrides[name] ?? realValues(op.template, name)[0]);
}

/** A value the route would accept, so that one hostile field at a time reaches deep code. */
function plausible(name: string, schema: Schema): unknown {
  const { sha, bob, group } = world;
  const byName: Record<string, unknown> = {
    branch_name: 'master',
    branch: 'master',
    ref: 'master',
    ref_name: 'master',
    from: 'v1.0',
    to: 'master',
    sha,
    file_path: 'README.md',
    filepath: 'README.md',
    content: 'fuzzed\n',
    commit_message: 'fuzz',
    message: 'fuzz',
    email: 'fuzz@example.com',
    url: 'http://127.0.0.1:9/hook',
    key: publicKeys['ed25519-1'].key,
    title: 'fuzz',
    password: 'password123',
    tag_name: 'fuzz-tag',
    value: 'v',
    starts_at: '2030-01-01T00:00:00Z',
    ends_at: '2030-01-02T00:00:00Z',
    color: '#E75E40',
    font: '#FFFFFF',
    visibility_level: 20,
    access_level: 30,
    group_access: 30,
    user_id: bob.id,
    group_id: group.id,
    state: 'success',
    note: 'fuzz',
    login: 'root',
    name: 'fuzz',
    path: 'fuzz',
    username: 'fuzz',
  };
  if (name in byName) return byName[name];
  const option = schema.anyOf?.[0] ?? schema;
  if (option.enum) return option.enum[0];
  switch (Array.isArray(option.type) ? option.type[0] : option.type) {
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [plausible(name, option.items ?? {})];
    case 'object':
      return {};
    default:
      return 'fuzz';
  }
}

function plausibleBody(schema: Schema, all: boolean): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (all || schema.required?.includes(name)) fields[name] = plausible(name, property);
  }
  return fields;
}

const acceptsString = (schema: Schema): boolean =>
  schema.anyOf
    ? schema.anyOf.some(acceptsString)
    : schema.type === undefined || schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'));

/** Fields whose value reaches git as an argument or a revision. */
const GITISH_FIELD = /^(ref|ref_name|branch|branch_name|sha|from|to|tag_name|file_path|filepath|path)$/;

// ---------------------------------------------------------------------------------------------
// Probes

function probesFor(op: Operation, rng: Rng): Probe[] {
  if (isGit(op)) return [];
  const probes: Probe[] = [];
  const hasBody = op.body !== undefined;
  const required = hasBody ? plausibleBody(op.body!, false) : {};
  /** The path with real values but for `overrides`; required query parameters plausible but for `hostile`. */
  const url = (overrides: Record<string, string> = {}, hostile?: { name: string; value: string }) => {
    const query = op.queryParams
      .filter((p) => p.required && p.name !== hostile?.name)
      .map((p) => `${p.name}=${encodeURIComponent(String(spread(op, { [p.name]: plausible(p.name, p.schema) })[p.name]))}`);
    if (hostile) query.push(hostile.value);
    return fill(op, overrides) + (query.length > 0 ? `?${query.join('&')}` : '');
  };
  const base = url();
  const json = (fields: Record<string, unknown>) => ({
    body: JSON.stringify(spread(op, fields)),
    headers: { 'content-type': 'application/json' },
  });
  /** Root always; the normal user and anonymous for a seeded share of the probes. */
  const add = (probe: Omit<Probe, 'op' | 'identity'>) => {
    probes.push({ op, identity: 'root', ...probe });
    if (rng.next() < 0.2) probes.push({ op, identity: 'user', ...probe });
    if (rng.next() < 0.1) probes.push({ op, identity: 'anonymous', ...probe });
  };
  const withBody = (at: string, input: string, fields = required) => add({ url: at, input, ...(hasBody ? json(fields) : {}) });

  // Plain requests, for every real value of every path parameter and every identity.
  for (const identity of ['root', 'user', 'anonymous'] as const) {
    probes.push({ op, identity, url: base, input: 'plain', ...(hasBody ? json(required) : {}) });
  }
  for (const name of op.pathParams) {
    for (const real of realValues(op.template, name).slice(1)) withBody(url({ [name]: real }), `{${name}}=${real}`);
  }
  withBody(base.replace(/(\?|$)/, '.json$1'), '.json suffix');
  if (hasBody) withBody(base, 'every field plausible', plausibleBody(op.body!, true));

  // Hostile path parameters.
  for (const name of op.pathParams) {
    for (const segment of rng.sample(pathSegments(), 7 * ROUNDS)) withBody(url({ [name]: segment.value }), `{${name}}=${segment.label}`);
  }

  // Hostile query parameters, one at a time; page and per_page at their extremes.
  for (const { name } of op.queryParams) {
    const values =
      name === 'page' || name === 'per_page'
        ? PAGE_VALUES.map((value) => ({ label: `${name}=${value || '""'}`, value: `${name}=${value}` }))
        : rng.sample(queryValues(name), 3 * ROUNDS);
    for (const value of values) withBody(url({}, { name, value: value.value }), value.label);
  }
  if (op.queryParams.length > 0)
    add({
      url: `${fill(op)}?${op.queryParams.map((p) => `${p.name}[x]=1`).join('&')}&unknown=1`,
      input: 'every query parameter an object',
    });

  if (!hasBody) {
    if (op.method === 'POST' || op.method === 'PUT') for (const raw of rawBodies({ a: 1 })) add(rawProbe(base, raw));
    return probes;
  }

  // Hostile body fields, one at a time over an otherwise plausible body.
  const properties = Object.entries(op.body!.properties ?? {});
  for (const [name, schema] of properties) {
    for (const value of rng.sample(bodyFieldValues(), 3 * ROUNDS))
      withBody(base, `body.${name}=${value.label}`, { ...required, [name]: value.value });
    if (acceptsString(schema)) {
      // 5 MB only where the value may reach git's command line; more with FUZZ_ROUNDS.
      const sizes = [100 * 1024, ...(GITISH_FIELD.test(name) ? [5 * 1024 * 1024] : [])];
      for (const size of sizes)
        probes.push({
          op,
          identity: 'root',
          url: base,
          input: `body.${name}=${sizeLabel(size)} string`,
          ...json({ ...required, [name]: longString(size) }),
        });
    }
  }
  for (let round = 1; round < ROUNDS && properties.length > 0; round++) {
    const [name] = rng.pick(properties);
    probes.push({
      op,
      identity: 'root',
      url: base,
      input: `body.${name}=5 MB string`,
      ...json({ ...required, [name]: longString(5 * 1024 * 1024) }),
    });
  }
  for (let round = 0; round < 2 * ROUNDS; round++) {
    const fields = Object.fromEntries(properties.map(([name]) => [name, rng.pick(bodyFieldValues()).value]));
    withBody(base, `every field hostile (round ${round})`, fields);
  }
  withBody(base, 'unknown fields', { ...required, unknown_field: 1, 'a[b]': 'c', '': 'empty key' });
  for (const raw of rawBodies(spread(op, plausibleBody(op.body!, true)))) add(rawProbe(base, raw));
  return probes;
}

let writes = 0;
/**
 * Writes go to the seeded branches in turn, and new files to new paths, so that they neither
 * queue behind each other on one branch nor all fail on "already exists".
 */
function spread(op: Operation, fields: Record<string, unknown>): Record<string, unknown> {
  if (op.method === 'GET') return fields;
  const result = { ...fields };
  if (result.branch_name === 'master') result.branch_name = `fuzz-${writes++ % SPREAD_BRANCHES}`;
  // v4 calls it `branch` (and names the file in the path).
  if (op.template.startsWith('/api/v4/') && result.branch === 'master') result.branch = `fuzz-${writes++ % SPREAD_BRANCHES}`;
  if (op.method === 'POST' && result.file_path === 'README.md') result.file_path = `fuzz/${writes++}.txt`;
  return result;
}

function rawProbe(url: string, raw: RawBody): Omit<Probe, 'op' | 'identity'> {
  return {
    url,
    input: raw.label,
    body: raw.contentType ? raw.body : Buffer.from(raw.body),
    headers: { ...(raw.contentType ? { 'content-type': raw.contentType } : {}), ...raw.headers },
  };
}

/** git's smart HTTP: services, protocol headers, content types and broken pkt-lines. */
function gitProbes(operations: Operation[], rng: Rng): Probe[] {
  const probes: Probe[] = [];
  const find = (suffix: string) => operations.find((op) => op.template.endsWith(suffix))!;
  const infoRefs = find('/info/refs');
  const identities: Identity[] = ['root', 'user', 'anonymous'];
  const services = [
    'git-upload-pack',
    'git-receive-pack',
    'git-bogus',
    '',
    'git-upload-pack&service=git-receive-pack',
    '..%2Fgit-upload-pack',
  ];
  for (const identity of identities) {
    for (const service of services)
      probes.push({ op: infoRefs, identity, url: `${fill(infoRefs)}?service=${service}`, input: `service=${service || '""'}` });
    probes.push({ op: infoRefs, identity, url: fill(infoRefs), input: 'no service' });
  }
  for (const protocol of ['version=2', 'version=99999999999999999999', 'version=1:version=2', longString(8 * 1024)]) {
    probes.push({
      op: infoRefs,
      identity: 'root',
      url: `${fill(infoRefs)}?service=git-upload-pack`,
      input: `Git-Protocol: ${protocol.slice(0, 30)}`,
      headers: { 'git-protocol': protocol },
    });
  }

  const zero = '0'.repeat(40);
  const pkt = (line: string) => (line.length + 4).toString(16).padStart(4, '0') + line;
  const bodies: Array<{ label: string; body: string | Buffer }> = [
    { label: 'empty body', body: '' },
    { label: 'flush only', body: '0000' },
    { label: 'truncated length', body: '00' },
    { label: 'non-hex length', body: 'zzzzwant' },
    { label: 'length beyond the body', body: 'ffffwant' },
    { label: 'length 0001-0003', body: '0001' },
    { label: 'empty pkt-line 0004', body: '00040000' },
    { label: 'want of a bad sha', body: `${pkt('want nothex\n')}0000${pkt('done\n')}` },
    { label: 'want of an unknown sha, no flush', body: pkt(`want ${'1'.repeat(40)}\n`) },
    { label: 'v2 command=ls-refs', body: `${pkt('command=ls-refs\n')}0001${pkt('ref-prefix refs/\n')}0000` },
    { label: 'v2 unknown command', body: `${pkt('command=rm-rf\n')}0000` },
    { label: 'update without a pack', body: `${pkt(`${zero} ${world.sha} refs/heads/fuzz\0 report-status\n`)}0000` },
    { label: 'update of a ref "refs/heads/../../x"', body: `${pkt(`${zero} ${world.sha} refs/heads/../../x\0 report-status\n`)}0000PACK` },
    { label: 'update with bad shas', body: `${pkt('zz zz refs/heads/master\0report-status\n')}0000` },
    { label: 'update line of 65520 bytes', body: `${pkt(`${zero} ${world.sha} refs/heads/${'y'.repeat(65_400)}\0 report-status\n`)}0000` },
    { label: 'gzip-labelled garbage', body: Buffer.from('not gzip at all') },
    { label: '1 MB of zeros', body: Buffer.alloc(1024 * 1024) },
    { label: 'a JSON object', body: '{"a":1}' },
    { label: 'a form', body: 'a=1&b=2' },
  ];
  for (const service of ['upload-pack', 'receive-pack']) {
    const op = find(`/git-${service}`);
    const right = `application/x-git-${service}-request`;
    const wrongTypes = [
      'application/json',
      'application/x-www-form-urlencoded',
      'text/plain',
      'multipart/form-data; boundary=x',
      'multipart/form-data',
      undefined,
    ];
    for (const identity of identities) {
      for (const { label, body } of bodies) {
        const headers: Record<string, string> = {
          'content-type': right,
          ...(label.startsWith('gzip') ? { 'content-encoding': 'gzip' } : {}),
          ...(label.startsWith('v2') ? { 'git-protocol': 'version=2' } : {}),
        };
        if (identity === 'root' || rng.next() < 0.3) probes.push({ op, identity, url: fill(op), input: label, headers, body });
        if (identity === 'root')
          probes.push({
            op,
            identity,
            url: fill(op),
            input: `${label}, then a request on the same connection`,
            headers,
            body,
            reuse: true,
          });
      }
    }
    for (const contentType of wrongTypes) {
      for (const { label, body } of [bodies.at(-2)!, bodies.at(-1)!, ...rng.sample(bodies.slice(0, -2), 2)]) {
        probes.push({
          op,
          identity: 'root',
          url: fill(op),
          input: `${label}, content type ${contentType ?? 'none'}`,
          headers: contentType ? { 'content-type': contentType } : {},
          body: contentType ? body : Buffer.from(body),
        });
      }
    }
    probes.push({
      op,
      identity: 'root',
      url: fill(op),
      input: 'multipart unterminated part',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      body: '--b\r\ncontent-disposition: form-data; name="x"\r\n\r\nabc',
    });
  }
  return probes;
}

/** Git LFS: batch bodies of every wrong shape, object ids and sizes that are not, uploads that lie. */
function lfsProbes(operations: Operation[]): Probe[] {
  const probes: Probe[] = [];
  const find = (suffix: string, method: string) => operations.find((op) => op.template.endsWith(suffix) && op.method === method)!;
  const batch = find('/info/lfs/objects/batch', 'POST');
  const download = find('/gitlab-lfs/objects/{oid}', 'GET');
  const upload = find('/gitlab-lfs/objects/{oid}/{size}', 'PUT');
  const oid = 'a'.repeat(64);
  const lfsJson = 'application/vnd.git-lfs+json';
  const bodies: Array<{ label: string; body: string | Buffer; type?: string }> = [
    { label: 'empty body', body: '' },
    { label: 'not JSON', body: '{"operation":' },
    { label: 'a JSON array', body: '[1,2]' },
    { label: 'JSON null', body: 'null' },
    { label: 'no operation', body: '{"objects":[]}' },
    { label: 'operation 42', body: '{"operation":42,"objects":[]}' },
    { label: 'objects a string', body: '{"operation":"download","objects":"x"}' },
    { label: 'objects of nulls', body: '{"operation":"upload","objects":[null,1]}' },
    {
      label: 'oid and size of every type',
      body: JSON.stringify({
        operation: 'upload',
        objects: [{ oid: 1, size: 'x' }, { oid: null }, { oid: ['a'], size: 1e300 }, { oid, size: -1 }, { oid, size: 2 ** 60 }, {}],
      }),
    },
    { label: 'a long oid', body: JSON.stringify({ operation: 'download', objects: [{ oid: longString(100_000), size: 1 }] }) },
    {
      label: '10000 objects',
      body: JSON.stringify({
        operation: 'download',
        objects: Array.from({ length: 10_000 }, (_, i) => ({ oid: i.toString(16).padStart(64, '0'), size: i })),
      }),
    },
    { label: '4 MB of JSON', body: JSON.stringify({ operation: 'download', objects: [], pad: 'x'.repeat(4 * 1024 * 1024) }) },
    { label: 'a form', body: 'a=1', type: 'application/x-www-form-urlencoded' },
    { label: 'multipart', body: '--b\r\n', type: 'multipart/form-data; boundary=b' },
    { label: 'no content type', body: '{"operation":"download","objects":[]}', type: '' },
  ];
  for (const identity of ['root', 'user', 'anonymous'] as Identity[]) {
    for (const { label, body, type = lfsJson } of bodies) {
      probes.push({
        op: batch,
        identity,
        url: fill(batch),
        input: label,
        headers: type ? { 'content-type': type } : {},
        body: type ? body : Buffer.from(body),
      });
    }
    for (const value of ['nothex', 'A'.repeat(64), oid, '..%2F..%2Fsecret.key', longString(5000)]) {
      probes.push({ op: download, identity, url: fill(download, { oid: value }), input: `oid=${value.slice(0, 20)}` });
    }
    const uploads: Array<{ label: string; oid: string; size: string; body: Buffer }> = [
      { label: 'content not matching its oid', oid, size: '3', body: Buffer.from('abc') },
      { label: 'shorter than its size', oid, size: '10', body: Buffer.from('abc') },
      { label: 'longer than its size', oid, size: '1', body: Buffer.alloc(200_000) },
      { label: 'size not a number', oid, size: 'x', body: Buffer.from('a') },
      { label: 'size beyond any integer', oid, size: '9'.repeat(40), body: Buffer.from('a') },
      { label: 'oid a path', oid: '..%2F..%2Fsecret.key', size: '1', body: Buffer.from('a') },
    ];
    for (const { label, oid: id, size, body } of uploads) {
      probes.push({
        op: upload,
        identity,
        url: fill(upload, { oid: id, size }),
        input: label,
        headers: { 'content-type': 'application/octet-stream' },
        body,
      });
      if (identity === 'root')
        probes.push({
          op: upload,
          identity,
          url: fill(upload, { oid: id, size }),
          input: `${label}, then a request on the same connection`,
          headers: { 'content-type': 'application/octet-stream' },
          body,
          reuse: true,
        });
    }
  }
  return probes;
}

const SECRET_INPUT = "the secrets of root's projects";

/**
 * Alice asks every GET route under `/projects/{id}` of root's projects with secrets, its path
 * parameters naming the confidential issue, the private snippet, the merge request and the notes on
 * them (the seeded values elsewhere): plain requests, dealt to shards with their routes.
 */
function secretProbes(operations: Operation[]): Probe[] {
  const probes: Probe[] = [];
  for (const op of operations) {
    if (op.method !== 'GET' || !op.template.startsWith(`/api/${api}/projects/{id}`)) continue;
    for (const target of world.secrets.projects) {
      const segments = op.template.split('/');
      const overrides: Record<string, string> = { id: String(target.id) };
      for (const name of op.pathParams) {
        const at = segments.indexOf(`{${name}}`);
        const kind = segments[name === 'note_id' ? at - 3 : at - 1];
        const note = name === 'note_id';
        // v4 names issues and merge requests (the parents of notes and awards too) by iid.
        const v4 = api === 'v4';
        const ids: Record<string, [number | undefined, number | undefined]> = {
          issues: [target.issueNote, v4 ? target.issueIid : target.issue],
          snippets: [target.snippetNote, target.snippet],
          merge_requests: [target.mergeRequestNote, v4 ? target.mergeRequestIid : target.mergeRequest],
          merge_request: [target.mergeRequestNote, target.mergeRequest],
        };
        const id = Object.hasOwn(ids, kind) ? ids[kind][note ? 0 : 1] : undefined;
        if (id !== undefined) overrides[name] = String(id);
      }
      const query = op.queryParams
        .filter((p) => p.required || p.name === 'per_page')
        .map((p) => `${p.name}=${encodeURIComponent(p.name === 'per_page' ? '100' : String(plausible(p.name, p.schema)))}`);
      const url = fill(op, overrides) + (query.length > 0 ? `?${query.join('&')}` : '');
      probes.push({ op, identity: 'user', url, input: SECRET_INPUT });
      // v4 shows public projects to anonymous callers: they are asked too.
      if (api === 'v4') probes.push({ op, identity: 'anonymous', url, input: SECRET_INPUT });
    }
  }
  return probes;
}

// ---------------------------------------------------------------------------------------------
// Sending

function authHeaders(probe: Probe): Record<string, string> {
  const token = probe.identity === 'root' ? app.rootToken : probe.identity === 'user' ? world.alice.token : undefined;
  if (!token) return {};
  if (!isGit(probe.op)) return { 'private-token': token };
  const login = probe.identity === 'root' ? 'root' : world.alice.username;
  return { authorization: `Basic ${Buffer.from(`${login}:${token}`).toString('base64')}` };
}

/** Sends one probe; what is wrong with the answer, if anything. */
async function send(probe: Probe): Promise<string | undefined> {
  if (!PROFILE) return sendTimed(probe);
  const started = Date.now();
  const outcome = await sendTimed(probe);
  const route = `${probe.op.method} ${probe.op.template}`;
  spentMs.set(route, (spentMs.get(route) ?? 0) + Date.now() - started);
  return outcome;
}

async function sendTimed(probe: Probe): Promise<string | undefined> {
  if (probe.reuse) return sendThenReuse(probe);
  try {
    const response = await fetch(app.url + probe.url, {
      method: probe.op.method,
      // A connection of its own: a request that leaves a kept-alive connection unusable would
      // otherwise be blamed on whichever request happens to follow it.
      headers: { connection: 'close', ...authHeaders(probe), ...probe.headers },
      body: probe.body as BodyInit | undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await response.text();
    answered.set(probe, response.status);
    if (response.status >= 500) return `${response.status}`;
    const secret = probe.identity === 'root' ? undefined : world.secrets.texts.find((text_) => text.includes(text_));
    if (secret) return `${response.status} showing ${secret} to ${probe.identity === 'user' ? 'alice' : 'an anonymous caller'}`;
    if (probe.url.startsWith('/api/') && (response.headers.get('content-type') ?? '').includes('json') && text !== '') {
      try {
        JSON.parse(text);
      } catch {
        return `${response.status} with a JSON content type and a body that is not JSON`;
      }
    }
    return undefined;
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') return `hang (no answer in ${TIMEOUT_MS / 1000} s)`;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if (cause?.code === 'UND_ERR_HEADERS_OVERFLOW') return 'answer unreadable: response headers over 16 KB';
    return `no answer: ${(error as Error).message}${cause ? ` (${cause.code ?? cause.message})` : ''}`;
  }
}

/** Sends the probe, then `GET /api/v3/user` over the same kept-alive connection. */
async function sendThenReuse(probe: Probe): Promise<string | undefined> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const request = (method: string, path: string, headers: Record<string, string>, body?: string | Buffer) =>
    new Promise<number | 'timeout' | Error>((resolve) => {
      const sent = http.request(`${app.url}${path}`, { method, headers, agent, timeout: TIMEOUT_MS }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      });
      sent.on('timeout', () => {
        sent.destroy();
        resolve('timeout');
      });
      sent.on('error', (error) => resolve(error));
      sent.end(body);
    });
  try {
    const first = await request(probe.op.method, probe.url, { ...authHeaders(probe), ...probe.headers }, probe.body);
    if (first === 'timeout') return `hang (no answer in ${TIMEOUT_MS / 1000} s)`;
    if (typeof first === 'number' && first >= 500) return `${first}`;
    const second = await request('GET', '/api/v3/user', { 'private-token': app.rootToken });
    if (second === 'timeout') return `the next request on the same kept-alive connection got no answer in ${TIMEOUT_MS / 1000} s`;
    return undefined;
  } finally {
    agent.destroy();
  }
}

/**
 * Sends every probe, routes interleaved: at most CONCURRENCY requests are active, at most
 * PER_ROUTE of one route (writers of one branch would only queue behind each other). A request
 * unanswered after SLOW_MS stops counting as active, so that hangs do not stall the pass, but
 * still counts against MAX_IN_FLIGHT.
 */
async function runAll(probes: Probe[]): Promise<void> {
  const queue = interleaved(probes);
  const active = new Map<Operation, number>();
  let activeTotal = 0;
  const inFlight = new Set<Promise<void>>();
  let wake = () => {};
  const start = (probe: Probe) => {
    active.set(probe.op, (active.get(probe.op) ?? 0) + 1);
    activeTotal++;
    let counted = true;
    const settle = () => {
      if (!counted) return;
      counted = false;
      active.set(probe.op, active.get(probe.op)! - 1);
      activeTotal--;
      wake();
    };
    const timer = setTimeout(settle, SLOW_MS);
    const request: Promise<void> = send(probe).then((outcome) => {
      if (outcome) findings.push({ probe, outcome });
      clearTimeout(timer);
      inFlight.delete(request);
      settle();
      wake();
    });
    inFlight.add(request);
  };
  while (queue.length > 0 || inFlight.size > 0) {
    for (let i = 0; i < queue.length && activeTotal < CONCURRENCY && inFlight.size < MAX_IN_FLIGHT; i++) {
      if ((active.get(queue[i].op) ?? 0) >= PER_ROUTE) continue;
      start(queue.splice(i--, 1)[0]);
    }
    await new Promise<void>((resolve) => (wake = resolve));
  }
}

/** One probe of each route in turn. */
function interleaved(probes: Probe[]): Probe[] {
  const byRoute = new Map<Operation, Probe[]>();
  for (const probe of probes) byRoute.set(probe.op, [...(byRoute.get(probe.op) ?? []), probe]);
  const lists = [...byRoute.values()];
  const longest = Math.max(0, ...lists.map((list) => list.length));
  return Array.from({ length: longest }, (_, i) => lists.flatMap((list) => (i < list.length ? [list[i]] : []))).flat();
}

// ---------------------------------------------------------------------------------------------
// Reporting

const shorten = (text: string) => text.replace(/(.)\1{40,}/g, (run, char) => `${char}…(${run.length})`).slice(0, 160);

/** Replays each 5xx alone, so that the error lines logged meanwhile are its own. */
async function explain(found: Finding[]): Promise<void> {
  for (const finding of found) {
    if (!/^5/.test(finding.outcome)) continue;
    const from = serverErrors.causes.length;
    const again = await send(finding.probe);
    finding.cause = serverErrors.causes.slice(from).join(' | ') || `(nothing logged; the replay answered ${again ?? 'well'})`;
  }
}

/** One group per outcome, route and logged cause; every request listed, ready to replay. */
function report(all: Finding[]): string {
  const groups = new Map<string, Finding[]>();
  for (const finding of all) {
    const key = `${finding.outcome} · ${finding.probe.op.method} ${finding.probe.op.template}${finding.cause ? `\n    cause: ${finding.cause}` : ''}`;
    groups.set(key, [...(groups.get(key) ?? []), finding]);
  }
  const lines = [`${all.length} of ${sent} requests failed (FUZZ_SEED=${SEED} FUZZ_ROUNDS=${ROUNDS}), in ${groups.size} groups:`];
  for (const [key, group] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`\n${key} (${group.length})`);
    for (const { probe } of group)
      lines.push(`    [${probe.identity}] ${shorten(probe.input)}  ←  ${probe.op.method} ${shorten(probe.url)}`);
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Seeding

async function seed(app: TestApp): Promise<World> {
  const created = async (what: string, request: Promise<{ status: number; body: any }>) => {
    const response = await request;
    if (response.status >= 300) throw new Error(`seeding ${what}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const alice = await app.createUser({ username: 'alice', email: 'alice@example.com' });
  const bob = await app.createUser({ username: 'bob', email: 'bob@example.com' });
  const group = await created('a group', app.root.post('/groups', { name: 'fuzz-group', path: 'fuzz-group', visibility_level: 20 }));
  await created('a group member', app.root.post(`/groups/${group.id}/members`, { user_id: alice.user.id, access_level: 50 }));
  const publicProject = await created('a public project', alice.client.post('/projects', { name: 'fuzz-public', visibility_level: 20 }));
  const privateProject = await created('a private project', alice.client.post('/projects', { name: 'fuzz-private', visibility_level: 0 }));

  const dir = await workTree('master', { 'README.md': '# fuzz\n', 'docs/a.md': 'a\n', '.gitlab-ci.yml': 'test:\n  script: echo fuzz\n' });
  await git(['checkout', '-q', '-b', 'feature/x'], dir);
  await commit(dir, { 'docs/b.md': 'b\n' }, 'on a branch');
  await git(['checkout', '-q', 'master'], dir);
  for (let i = 0; i < SPREAD_BRANCHES; i++) await git(['branch', `fuzz-${i}`], dir);
  await git(['tag', '-a', '-m', 'first', 'v1.0'], dir);
  for (const project of [publicProject, privateProject]) {
    const pushed = await git(
      [
        'push',
        '-q',
        cloneUrl(app.url, project.path_with_namespace, 'alice', alice.token),
        'refs/heads/*:refs/heads/*',
        'refs/tags/*:refs/tags/*',
      ],
      dir,
    );
    if (pushed.code !== 0) throw new Error(`seeding a push: ${pushed.stderr}`);
  }
  const sha = (await git(['rev-parse', 'master'], dir)).stdout.trim();

  const p = publicProject.id;
  await created('a member', alice.client.post(`/projects/${p}/members`, { user_id: bob.user.id, access_level: 30 }));
  const projectHook = await created('a project hook', alice.client.post(`/projects/${p}/hooks`, { url: 'http://127.0.0.1:9/hook' }));
  await created('a variable', alice.client.post(`/projects/${p}/variables`, { key: 'FUZZ_VAR', value: 'x' }));
  await created('a commit status', alice.client.post(`/projects/${p}/statuses/${sha}`, { state: 'success', name: 'fuzz' }));
  await created('a commit comment', alice.client.post(`/projects/${p}/repository/commits/${sha}/comments`, { note: 'fuzz' }));
  const systemHook = await created('a system hook', app.root.post('/hooks', { url: 'http://127.0.0.1:9/system' }));
  const broadcast = await created('a broadcast message', app.root.post('/broadcast_messages', { message: 'fuzz' }));
  const key = await created('an SSH key', app.root.post(`/users/${bob.user.id}/keys`, { title: 'fuzz', key: publicKeys['rsa-1'].key }));
  await created('an SSH key', alice.client.post('/user/keys', { title: 'fuzz', key: publicKeys['ecdsa-1'].key }));
  const email = await created('an email', app.root.post(`/users/${bob.user.id}/emails`, { email: 'bob2@example.com' }));
  const rootKey = await created('an SSH key of root', app.root.post('/user/keys', { title: 'fuzz', key: publicKeys['ed25519-2'].key }));
  const rootEmail = await created('an email of root', app.root.post('/user/emails', { email: 'root2@example.com' }));
  const deployKey = await created(
    'a deploy key',
    alice.client.post(`/projects/${p}/deploy_keys`, { title: 'fuzz', key: publicKeys['ed25519-3'].key }),
  );
  await created('an access request', bob.client.post(`/groups/${group.id}/access_requests`));
  const issue = await created('an issue', alice.client.post(`/projects/${p}/issues`, { title: 'fuzz', labels: 'fuzz' }));
  const milestone = await created('a milestone', alice.client.post(`/projects/${p}/milestones`, { title: 'fuzz' }));
  const [label] = await created('the labels', alice.client.get(`/projects/${p}/labels`));
  const snippet = await created(
    'a snippet',
    alice.client.post(`/projects/${p}/snippets`, { title: 'fuzz', file_name: 'fuzz.txt', code: 'fuzz\n', visibility_level: 20 }),
  );
  const mergeRequest = await created(
    'a merge request',
    alice.client.post(`/projects/${p}/merge_requests`, { source_branch: 'feature/x', target_branch: 'master', title: 'fuzz' }),
  );
  const notes = {
    merge_requests: (
      await created('a merge request note', alice.client.post(`/projects/${p}/merge_requests/${mergeRequest.id}/notes`, { body: 'fuzz' }))
    ).id,
    issues: (await created('an issue note', alice.client.post(`/projects/${p}/issues/${issue.id}/notes`, { body: 'fuzz' }))).id,
    snippets: (await created('a snippet note', alice.client.post(`/projects/${p}/snippets/${snippet.id}/notes`, { body: 'fuzz' }))).id,
  };
  const award = await created('an award emoji', bob.client.post(`/projects/${p}/issues/${issue.id}/award_emoji`, { name: 'thumbsup' }));
  const trigger = await created('a trigger', alice.client.post(`/projects/${p}/triggers`));
  const environment = await created('an environment', alice.client.post(`/projects/${p}/environments`, { name: 'fuzz' }));
  const registrationToken = (await app.services.settings.get()).runners_registration_token;
  const runner = await fetch(`${app.url}/ci/api/v1/runners/register`, {
    method: 'POST',
    body: new URLSearchParams({ token: registrationToken }),
  });
  if (runner.status !== 201) throw new Error(`seeding a runner: ${runner.status}`);
  const secrets = await seedSecrets(app, alice.user.id, created);
  // The pushed .gitlab-ci.yml makes its pipeline in the background.
  const [build] = await eventually(
    async () => {
      const builds = (await alice.client.get(`/projects/${p}/builds`)).body;
      return builds.length > 0 && builds;
    },
    { message: 'the seeded pipeline' },
  );
  const [pipeline] = await created('the pipelines', alice.client.get(`/projects/${p}/pipelines`));
  const [version] = await created(
    'the merge request versions',
    alice.client.get(`/projects/${p}/merge_requests/${mergeRequest.id}/versions`),
  );
  return {
    alice: { id: alice.user.id, username: 'alice', token: alice.token },
    bob: { id: bob.user.id, username: 'bob' },
    group: { id: group.id, path: group.path },
    publicProject: { id: p, path: publicProject.path_with_namespace },
    privateProject: { id: privateProject.id, path: privateProject.path_with_namespace },
    sha,
    systemHook: systemHook.id,
    projectHook: projectHook.id,
    key: key.id,
    email: email.id,
    rootKey: rootKey.id,
    rootEmail: rootEmail.id,
    deployKey: deployKey.id,
    broadcast: broadcast.id,
    issue: issue.id,
    mergeRequest: mergeRequest.id,
    issueIid: issue.iid,
    mergeRequestIid: mergeRequest.iid,
    mergeRequestVersion: version.id,
    pipeline: pipeline.id,
    // v3's trigger has no id.
    triggerId: (await created('the triggers', alice.client.v4().get(`/projects/${p}/triggers`)))[0].id,
    milestone: milestone.id,
    label: label.id,
    snippet: snippet.id,
    trigger: trigger.token,
    runner: ((await runner.json()) as { id: number }).id,
    build: build.id,
    environment: environment.id,
    notes,
    award: award.id,
    secrets,
  };
}

/**
 * Root's projects with what alice may not read, made after everything else so that the seeded ids
 * above stay as they were: a public project with a confidential issue and a private snippet (alice
 * is no member), a private one where she is a guest with a merge request; notes on each, and
 * todos of alice's on the issue and the merge request, as if left from before she lost sight of them.
 */
async function seedSecrets(
  app: TestApp,
  aliceId: number,
  created: (what: string, request: Promise<{ status: number; body: any }>) => Promise<any>,
): Promise<SecretSeeds> {
  const root = app.root;
  const texts: string[] = [];
  const secret = (what: string) => {
    texts.push(`FUZZ-SECRET-${what}`);
    return `FUZZ-SECRET-${what}`;
  };
  const open = await created('a project with secrets', root.post('/projects', { name: 'fuzz-secrets', visibility_level: 20 }));
  // A repository, so that the routes of its code answer and the secrets beside them are asked for too.
  await seedCommit(app, open.id, { files: { 'README.md': '# open\n' } });
  const issue = await created(
    'a confidential issue',
    root.post(`/projects/${open.id}/issues`, {
      title: secret('issue-title'),
      description: secret('issue-description'),
      confidential: true,
    }),
  );
  const issueNote = await created(
    'a note on it',
    root.post(`/projects/${open.id}/issues/${issue.id}/notes`, { body: secret('issue-note') }),
  );
  const snippet = await created(
    'a private snippet',
    root.post(`/projects/${open.id}/snippets`, {
      title: secret('snippet-title'),
      file_name: 's.txt',
      code: secret('snippet-content'),
      visibility_level: 0,
    }),
  );
  const snippetNote = await created(
    'a note on it',
    root.post(`/projects/${open.id}/snippets/${snippet.id}/notes`, { body: secret('snippet-note') }),
  );
  const closed = await created(
    'a private project with secrets',
    root.post('/projects', { name: 'fuzz-secrets-private', visibility_level: 0 }),
  );
  await created('alice a guest', root.post(`/projects/${closed.id}/members`, { user_id: aliceId, access_level: 10 }));
  await seedCommit(app, closed.id, { files: { 'README.md': '# secrets\n' } });
  await seedCommit(app, closed.id, {
    branch: 'topic',
    startRef: 'refs/heads/master',
    files: { 'secret.txt': secret('code') },
    message: secret('commit'),
  });
  const mergeRequest = await created(
    'a merge request',
    root.post(`/projects/${closed.id}/merge_requests`, {
      source_branch: 'topic',
      target_branch: 'master',
      title: secret('mr-title'),
      description: secret('mr-description'),
    }),
  );
  const mergeRequestNote = await created(
    'a note on it',
    root.post(`/projects/${closed.id}/merge_requests/${mergeRequest.id}/notes`, { body: secret('mr-note') }),
  );
  const time = new Date().toISOString();
  const todo = (projectId: number, targetType: string, targetId: number) => ({
    user_id: aliceId,
    project_id: projectId,
    author_id: 1,
    target_type: targetType,
    target_id: targetId,
    note_id: null,
    action: 2,
    created_at: time,
    updated_at: time,
  });
  await app.ctx.db
    .insertInto('todos')
    .values([todo(open.id, 'Issue', issue.id), todo(closed.id, 'MergeRequest', mergeRequest.id)])
    .execute();
  return {
    texts,
    projects: [
      { id: open.id, issue: issue.id, issueIid: issue.iid, issueNote: issueNote.id, snippet: snippet.id, snippetNote: snippetNote.id },
      { id: closed.id, mergeRequest: mergeRequest.id, mergeRequestIid: mergeRequest.iid, mergeRequestNote: mergeRequestNote.id },
    ],
  };
}
