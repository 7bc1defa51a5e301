import { performance } from 'node:perf_hooks';
import type { Benchmark, BenchOptions, TargetCheck } from './support/types';
import { databaseKind, startBenchApp, type BenchApp } from './support/app';
import { gptPasses, runOpenLoad, type LoadSummary, type OpenLoadTarget } from './support/open-load';
import { apiCall, timedRequest } from './support/http';
import { signInCookie } from './support/web-session';
import { ms, table } from './support/stats';
import { numberFrom, seed, startBareServer } from './gpt';

/**
 * GPT's web tests run at a tenth of its API rate (`WEB_ENDPOINT_THROUGHPUT` 0.1): 10/s at its
 * 5k-user reference of 100/s.
 */
const WEB_RATE = 10;
/** GPT's default TTFB threshold for web tests (several allow seconds); the issue's targets are below. */
const GPT_THRESHOLD_MS = 500;
const TARGET_P90_MS = 100;
const LARGE_BLOB_P90_MS = 150;
const LARGE_BLOB_LINES = 5_000;
/** `/search` over the issues of the seeded project (every issue's title names a label, so many match). */
const SEARCH_P90_MS = 150;
const LARGE_BLOB_PATH = 'src/generated/large_module.ts';
/** The merge request under review: this many line comments on its Changes tab and its Discussion tab. */
const LINE_COMMENTS = 200;
const REVIEW_P90_MS = 150;
/** The seeded caller (`seedProjects`): a developer of 44 projects, not an administrator. */
const LOGIN = { username: 'bench', password: 'password123' };

interface WebScenario {
  /** GPT's test name (`k6/tests/web/<name>.js`). */
  name: string;
  /** The page at GitLab 8.12's URL, under the project's path unless it starts with `/`. */
  path: string;
  targetMs: number;
}

/** A TypeScript module of `lines` lines, varied enough for the highlighter to work on every line. */
function largeModule(lines: number): string {
  const out: string[] = [];
  for (let n = 0; out.length < lines; n++) {
    out.push(
      `/** Step ${n}: scales the input and reports it. */`,
      `export function step${n}(input: number[], factor = ${n % 7}): number[] {`,
      `  const label = 'step-${n}'; // a string and a comment`,
      `  if (input.length === 0) throw new Error(\`\${label}: nothing to scale\`);`,
      `  return input.map((value, index) => value * factor + index / ${n + 1});`,
      '}',
      '',
    );
  }
  return `${out.slice(0, lines).join('\n')}\n`;
}

/** A v4 call as root (`apiCall` speaks v3, which has no discussions). */
async function v4Call(app: BenchApp, method: string, path: string, body: unknown): Promise<any> {
  const response = await timedRequest(`${app.url}/api/v4${path}`, {
    method,
    headers: { 'private-token': app.rootToken, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${response.body.toString().slice(0, 300)}`);
  return JSON.parse(response.body.toString());
}

/**
 * A merge request whose branch adds a file of 2 × `LINE_COMMENTS` lines, and a line comment on
 * each of its first `LINE_COMMENTS` lines through v4's discussions API, as reviewers make them.
 */
async function seedReviewedMergeRequest(app: BenchApp, projectId: number): Promise<number> {
  const lines = Array.from({ length: 2 * LINE_COMMENTS }, (_, n) => `Line ${n + 1}: a sentence under review, with a few words.`);
  await apiCall(app.url, app.rootToken, 'POST', `/projects/${projectId}/repository/branches`, { branch_name: 'reviewed', ref: 'master' });
  await apiCall(app.url, app.rootToken, 'POST', `/projects/${projectId}/repository/files`, {
    file_path: 'REVIEWED.md',
    branch_name: 'reviewed',
    content: `${lines.join('\n')}\n`,
    commit_message: 'Add REVIEWED.md',
  });
  const created = await v4Call(app, 'POST', `/projects/${projectId}/merge_requests`, {
    source_branch: 'reviewed',
    target_branch: 'master',
    title: `Review ${LINE_COMMENTS} lines`,
  });
  for (let line = 1; line <= LINE_COMMENTS; line++) {
    await v4Call(app, 'POST', `/projects/${projectId}/merge_requests/${created.iid}/discussions`, {
      body: `Line ${line}: could this say **more**?`,
      position: { position_type: 'text', old_path: 'REVIEWED.md', new_path: 'REVIEWED.md', new_line: line },
    });
  }
  return created.iid;
}

/** The `gpt` bench's instance, a 5,000-line file committed on master, and what the page URLs need. */
async function seedWeb(app: BenchApp, shape: { commits: number; files: number }) {
  const seeded = await seed(app, shape);
  const { projectId, busyIssueId, benchToken } = seeded.world;
  const api = (route: string) => apiCall(app.url, benchToken, 'GET', `/projects/${projectId}${route}`);
  await apiCall(app.url, app.rootToken, 'POST', `/projects/${projectId}/repository/files`, {
    file_path: LARGE_BLOB_PATH,
    branch_name: 'master',
    content: largeModule(LARGE_BLOB_LINES),
    commit_message: `Add a module of ${LARGE_BLOB_LINES} lines`,
  });
  const [project, issue, mergeRequest, pipelines] = await Promise.all([
    api(''),
    api(`/issues/${busyIssueId}`),
    api(`/merge_requests/${seeded.mergeRequest.id}`),
    api('/pipelines'),
  ]);
  const reviewedIid = await seedReviewedMergeRequest(app, projectId);
  return {
    ...seeded,
    reviewedIid,
    projectPath: `/${project.path_with_namespace}`,
    issueIid: issue.iid as number,
    mergeRequestIid: mergeRequest.iid as number,
    pipelineId: pipelines[0].id as number,
    groupPath: (await apiCall(app.url, benchToken, 'GET', `/groups/${seeded.world.groupId}`)).path as string,
  };
}

function scenarios(seeded: Awaited<ReturnType<typeof seedWeb>>): WebScenario[] {
  const { fixture, compareFrom, head, issueIid, mergeRequestIid, pipelineId, groupPath, reviewedIid } = seeded;
  const page = (name: string, path: string, targetMs = TARGET_P90_MS): WebScenario => ({ name, path, targetMs });
  const mergeRequest = `merge_requests/${mergeRequestIid}`;
  return [
    page('web_project', ''),
    page('web_project_tree', `tree/master/${fixture.deepFolder}`),
    page('web_project_files', 'tree/master'),
    page('web_project_file_rendered', 'blob/master/README.md'),
    page('web_project_file_source', `blob/master/${LARGE_BLOB_PATH}`, LARGE_BLOB_P90_MS),
    page('web_project_file_blame', 'blame/master/README.md'),
    page('web_project_commits', 'commits/master'),
    page('web_project_commit', `commit/${fixture.middleSha}`),
    page('web_project_repository_compare', `compare/${compareFrom}...${head}`),
    page('web_project_branches', 'branches'),
    page('web_project_tags', 'tags'),
    page('web_group', `/groups/${groupPath}`),
    page('web_user', `/u/${LOGIN.username}`),
    page('web_project_issues', 'issues'),
    page('web_project_issue', `issues/${issueIid}`),
    page('web_project_merge_requests', 'merge_requests'),
    page('web_project_merge_request', mergeRequest),
    page('web_project_merge_request_changes', `${mergeRequest}/diffs`),
    page('web_project_merge_request_commits', `${mergeRequest}/commits`),
    page(`web_project_merge_request_${LINE_COMMENTS}_line_comments`, `merge_requests/${reviewedIid}`, REVIEW_P90_MS),
    page(`web_project_merge_request_changes_${LINE_COMMENTS}_line_comments`, `merge_requests/${reviewedIid}/diffs`, REVIEW_P90_MS),
    page('web_project_pipelines', 'pipelines'),
    page('web_project_pipelines_pipeline', `pipelines/${pipelineId}`),
    page('web_search', `/search?search=regression&scope=issues&project_id=${seeded.world.projectId}`, SEARCH_P90_MS),
  ];
}

const pageUrl = (projectPath: string, path: string) => (path.startsWith('/') ? path : path === '' ? projectPath : `${projectPath}/${path}`);

const perSecond = (value: number) => `${value.toFixed(1)}/s`;
const percent = (value: number) => `${(value * 100).toFixed(2)}%`;
const verdict = (summary: LoadSummary, threshold: number) => (gptPasses(summary, threshold) ? 'pass' : 'fail');

const HEADER = ['scenario', 'first', 'achieved', 'p50 TTFB', 'p90 TTFB', 'p99 TTFB', 'success', `GPT (${GPT_THRESHOLD_MS} ms)`, 'target'];

function row(name: string, first: string, summary: LoadSummary, targetMs: number): string[] {
  return [
    name,
    first,
    perSecond(summary.achievedRate),
    ms(summary.p50),
    ms(summary.p90),
    ms(summary.p99),
    percent(summary.success),
    verdict(summary, GPT_THRESHOLD_MS),
    `${verdict(summary, targetMs)} (p90 < ${targetMs} ms)`,
  ];
}

/**
 * GPT's web tests against Forge's pages, signed in through the web form: each page alone at GPT's
 * 5k-user web rate (10/s), beside a bare `node:http` server loaded the same way. A page that answers
 * 404 (not built yet) is reported `not available`. `WEB_SCENARIO=<name>[,<name>…]` runs only those;
 * `WEB_RATE` and `WEB_DURATION` (seconds) change the rate and the window.
 */
async function run({ quick }: BenchOptions): Promise<TargetCheck[]> {
  const seconds = numberFrom('WEB_DURATION', quick ? 5 : 60);
  const rate = numberFrom('WEB_RATE', WEB_RATE);
  const graceSeconds = Math.min(seconds, 10);
  const shape = quick ? { commits: 1_500, files: 300 } : { commits: 5_000, files: 1_000 };

  const app = await startBenchApp();
  const bare = await startBareServer();
  try {
    const started = performance.now();
    const seeded = await seedWeb(app, shape);
    const all = scenarios(seeded);
    const names = process.env.WEB_SCENARIO ? process.env.WEB_SCENARIO.split(',') : [];
    const unknown = names.filter((name) => !all.some((s) => s.name === name));
    if (unknown.length > 0) throw new Error(`no scenario ${unknown.join(', ')}; there are: ${all.map((s) => s.name).join(' ')}`);
    const chosen = names.length > 0 ? all.filter((s) => names.includes(s.name)) : all;
    const cookie = await signInCookie(app.url, LOGIN.username, LOGIN.password);
    console.log(
      `${databaseKind()}; seeded in ${((performance.now() - started) / 1000).toFixed(1)} s: the gpt bench's instance ` +
        `(repository of ${shape.commits} commits over ${shape.files} files) and a ${LARGE_BLOB_LINES}-line TypeScript file; ` +
        `signed in as ${LOGIN.username} through /users/sign_in`,
    );
    console.log(
      `open model at ${rate}/s per page, TTFB from each request's due time; ${seconds} s window (+ up to ${graceSeconds} s for late answers); ` +
        '"first" is the first request of the page (rendering not yet kept)',
    );

    const target = (scenario: WebScenario): OpenLoadTarget => ({
      url: `${app.url}${pageUrl(seeded.projectPath, scenario.path)}`,
      headers: { cookie },
    });
    const load = async (plan: OpenLoadTarget) => {
      const report = await runOpenLoad({ targets: [plan], rate, seconds, graceSeconds });
      // Requests given up are still worked on: one more, queued after them, waits until they are done.
      await timedRequest(plan.url, { headers: plan.headers });
      return report.total;
    };

    const rows = [row('bare node:http, 1 KB JSON', '-', await load({ url: bare.url }), TARGET_P90_MS)];
    const checks: TargetCheck[] = [];
    for (const scenario of chosen) {
      const plan = target(scenario);
      const label = `${scenario.name} at ${rate}/s`;
      const goal = `GPT rules, p90 < ${scenario.targetMs} ms`;
      const first = await timedRequest(plan.url, { headers: plan.headers });
      if (first.status === 404) {
        rows.push([scenario.name, 'not available', '-', '-', '-', '-', '-', '-', '-']);
        checks.push({ bench: 'web', label, value: 'page answers 404', target: goal, status: 'not available' });
        continue;
      }
      const summary = await load(plan);
      rows.push(row(scenario.name, `${first.status} ${ms(first.ms)}`, summary, scenario.targetMs));
      const value = `${perSecond(summary.achievedRate)}, p90 ${ms(summary.p90)}, ${percent(summary.success)} ok`;
      console.log(`${scenario.name} (${plan.url.slice(app.url.length)}): ${value}`);
      checks.push({ bench: 'web', label, value, target: goal, status: gptPasses(summary, scenario.targetMs) ? 'meets' : 'misses' });
    }
    console.log(table(HEADER, rows));
    return checks;
  } finally {
    await bare.close();
    await app.close();
  }
}

export const webBench: Benchmark = {
  name: 'web',
  description: "GitLab Performance Tool's web tests: each page signed in at GPT's 5k-user rate, p90 TTFB, beside a bare node:http server",
  run,
};
