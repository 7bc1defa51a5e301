/*
 * The `variables` of a build's payload, group by group in GitLab 8.12's order (predefined, project,
 * pipeline, runner, YAML, user, secret, trigger). The runner reads them from the end, so a later
 * group wins: trigger over secret over YAML over predefined.
 */

export interface BuildVariable {
  key: string;
  value: string | null;
  public: boolean;
}

/** What GitLab answers for `CI_SERVER_*`: runners and scripts test these, so they name 8.12. */
export const CI_SERVER = { name: 'GitLab', version: '8.12.0', revision: 'forge00' } as const;

export const ZERO_SHA = '0'.repeat(40);

export interface VariableSources {
  build: { id: number; name: string; stage: string | null; ref: string | null; when: string; yaml_variables: string };
  token: string;
  /** `source` is the stored `push`, `trigger` or `api`; `refProtected` whether the build's ref is a protected one. */
  pipeline: { id: number; sha: string; before_sha: string | null; tag: boolean; source?: string; refProtected?: boolean };
  project: { id: number; path: string; namespacePath: string; webUrl: string };
  runner: { id: number; description: string | null; tags: string[] } | undefined;
  user: { id: number; email: string; username?: string; name?: string } | undefined;
  secrets: Array<{ key: string; value: string }>;
  /** The variables of the trigger request that made the build's pipeline; undefined for other builds. */
  trigger: Record<string, string> | undefined;
  /**
   * Add GitLab 9's names (`CI_JOB_*`, `CI_COMMIT_*`) beside 8.12's `CI_BUILD_*`, as GitLab 9 sent
   * both. The runner API v1 payload keeps 8.12's list exactly, so only a door that speaks GitLab 9
   * (the runner API v4) asks for them.
   */
  jobNames?: boolean;
  /** The instance's external URL and the job's clone URL (with its token): today's `CI_SERVER_URL`, `CI_REPOSITORY_URL` …, with `jobNames`. */
  server?: { url: string; repositoryUrl: string };
}

const variable = (key: string, value: string | null, isPublic = true): BuildVariable => ({ key, value, public: isPublic });

export function buildVariables(s: VariableSources): BuildVariable[] {
  const { build, pipeline, project, runner, user } = s;
  const ref = build.ref ?? '';
  const predefined = [
    variable('CI', 'true'),
    variable('GITLAB_CI', 'true'),
    variable('CI_BUILD_ID', String(build.id)),
    variable('CI_BUILD_TOKEN', s.token, false),
    variable('CI_BUILD_REF', pipeline.sha),
    variable('CI_BUILD_BEFORE_SHA', pipeline.before_sha ?? ZERO_SHA),
    variable('CI_BUILD_REF_NAME', ref),
    variable('CI_BUILD_NAME', build.name),
    variable('CI_BUILD_STAGE', build.stage),
    variable('CI_SERVER_NAME', CI_SERVER.name),
    variable('CI_SERVER_VERSION', CI_SERVER.version),
    variable('CI_SERVER_REVISION', CI_SERVER.revision),
    ...(pipeline.tag ? [variable('CI_BUILD_TAG', ref)] : []),
    ...(s.trigger ? [variable('CI_BUILD_TRIGGERED', 'true')] : []),
    ...(build.when === 'manual' ? [variable('CI_BUILD_MANUAL', 'true')] : []),
    ...(s.jobNames ? jobVariables(s) : []),
  ];
  const runnerVariables = runner
    ? [
        variable('CI_RUNNER_ID', String(runner.id)),
        variable('CI_RUNNER_DESCRIPTION', runner.description),
        variable('CI_RUNNER_TAGS', runner.tags.join(', ')),
      ]
    : [];
  const userVariables = user
    ? [
        variable('GITLAB_USER_ID', String(user.id)),
        variable('GITLAB_USER_EMAIL', user.email),
        ...(s.jobNames && user.username !== undefined ? [variable('GITLAB_USER_LOGIN', user.username)] : []),
        ...(s.jobNames && user.name !== undefined ? [variable('GITLAB_USER_NAME', user.name)] : []),
      ]
    : [];
  return [
    ...predefined,
    ...projectVariables(project),
    variable('CI_PIPELINE_ID', String(pipeline.id)),
    ...runnerVariables,
    ...yamlVariables(build.yaml_variables),
    ...userVariables,
    ...s.secrets.map((secret) => variable(secret.key, secret.value, false)),
    ...Object.entries(s.trigger ?? {}).map(([key, value]) => variable(key, value, false)),
  ];
}

/** GitLab 9's names for what 8.12 called `CI_BUILD_*`, in GitLab 9's order. */
function jobVariables({ build, pipeline, project, token, trigger, server }: VariableSources): BuildVariable[] {
  const ref = build.ref ?? '';
  return [
    variable('CI_JOB_ID', String(build.id)),
    variable('CI_JOB_NAME', build.name),
    variable('CI_JOB_STAGE', build.stage),
    variable('CI_JOB_TOKEN', token, false),
    // Forge's pages keep GitLab 8.12's URLs (`/builds/:id`, not today's `/-/jobs/:id`): these open them.
    variable('CI_JOB_URL', `${project.webUrl}/builds/${build.id}`),
    variable('CI_PIPELINE_URL', `${project.webUrl}/pipelines/${pipeline.id}`),
    ...(server ? serverVariables(server) : []),
    ...commitVariables({
      ref,
      tag: pipeline.tag,
      sha: pipeline.sha,
      beforeSha: pipeline.before_sha,
      source: pipeline.source,
      refProtected: pipeline.refProtected ?? false,
    }),
    ...(trigger ? [variable('CI_PIPELINE_TRIGGERED', 'true')] : []),
    ...(build.when === 'manual' ? [variable('CI_JOB_MANUAL', 'true')] : []),
  ];
}

/** Where the instance and the job's repository are, as today's GitLab names them. */
function serverVariables(server: NonNullable<VariableSources['server']>): BuildVariable[] {
  const url = new URL(server.url);
  const protocol = url.protocol.replace(':', '');
  return [
    variable('CI_SERVER_URL', server.url),
    variable('CI_SERVER_HOST', url.hostname),
    variable('CI_SERVER_PORT', url.port || (protocol === 'https' ? '443' : '80')),
    variable('CI_SERVER_PROTOCOL', protocol),
    variable('CI_API_V4_URL', `${server.url}/api/v4`),
    variable('CI_REPOSITORY_URL', server.repositoryUrl, false),
  ];
}

function projectVariables(project: VariableSources['project']): BuildVariable[] {
  return [
    variable('CI_PROJECT_ID', String(project.id)),
    variable('CI_PROJECT_NAME', project.path),
    variable('CI_PROJECT_PATH', `${project.namespacePath}/${project.path}`),
    variable('CI_PROJECT_NAMESPACE', project.namespacePath),
    variable('CI_PROJECT_URL', project.webUrl),
  ];
}

/** What a pipeline is built from: its commit and ref; how it came and the commit's message when known. */
export interface PipelineFacts {
  ref: string;
  tag: boolean;
  sha: string;
  beforeSha: string | null;
  /** `push`, `trigger`, `api`: decided while the pipeline is created (rules read it), stored on it for its jobs. */
  source?: string;
  message?: string;
  defaultBranch?: string | null;
  /** Whether the ref is protected (`CI_COMMIT_REF_PROTECTED`), when known. */
  refProtected?: boolean;
}

/** GitLab 9+'s `CI_COMMIT_*` names (and `CI_PIPELINE_SOURCE`, `CI_DEFAULT_BRANCH` when known). */
function commitVariables(p: PipelineFacts): BuildVariable[] {
  return [
    variable('CI_COMMIT_SHA', p.sha),
    variable('CI_COMMIT_SHORT_SHA', p.sha.slice(0, 8)),
    variable('CI_COMMIT_BEFORE_SHA', p.beforeSha ?? ZERO_SHA),
    variable('CI_COMMIT_REF_NAME', p.ref),
    variable('CI_COMMIT_REF_SLUG', refSlug(p.ref)),
    variable(p.tag ? 'CI_COMMIT_TAG' : 'CI_COMMIT_BRANCH', p.ref),
    ...(p.message === undefined ? [] : [variable('CI_COMMIT_MESSAGE', p.message)]),
    ...(p.source === undefined ? [] : [variable('CI_PIPELINE_SOURCE', p.source)]),
    ...(p.defaultBranch ? [variable('CI_DEFAULT_BRANCH', p.defaultBranch)] : []),
    ...(p.refProtected === undefined ? [] : [variable('CI_COMMIT_REF_PROTECTED', p.refProtected ? 'true' : 'false')]),
  ];
}

/**
 * The predefined variables a pipeline's `rules:if` and `workflow:rules:if` read before any job
 * exists: the same names and values its jobs receive, less what only a job has.
 */
export function pipelineVariables(p: PipelineFacts, project: VariableSources['project']): BuildVariable[] {
  return [variable('CI', 'true'), variable('GITLAB_CI', 'true'), ...commitVariables(p), ...projectVariables(project)];
}

/** GitLab 9's `ref_slug`: lowercased, anything but letters and digits a dash, at most 63 characters, no dash at either end. */
function refSlug(ref: string): string {
  return ref
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '-')
    .slice(0, 63)
    .replace(/^-+|-+$/g, '');
}

/** The YAML variables stored on the build at creation (`[{key, value, public}]`), values as strings. */
function yamlVariables(stored: string): BuildVariable[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored || '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed
    .filter(
      (item): item is { key: unknown; value: unknown; public?: unknown } => item !== null && typeof item === 'object' && 'key' in item,
    )
    .map((item) =>
      variable(String(item.key), item.value === null || item.value === undefined ? null : String(item.value), item.public !== false),
    );
}

/** A trigger request's variables as stored (a JSON object of strings, or null for none). */
export function triggerVariables(stored: string | null): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(stored ?? '{}');
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
}
