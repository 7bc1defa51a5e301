import type { BuildPayload } from './payload';

/*
 * The build's environment as runner 1.x makes it (reference §3, last part): the runner's own
 * variables first, then the server's list, later entries winning; then `$VAR` and `${VAR}` expanded
 * inside every value against that list (unknown names become empty).
 */

export interface BuildDirs {
  buildsDir: string;
  projectDir: string;
}

export function buildVariables(payload: BuildPayload, dirs: BuildDirs): Map<string, string> {
  const list: Array<[string, string]> = [
    ['CI', 'true'],
    ['CI_BUILD_REF', payload.sha],
    ['CI_BUILD_BEFORE_SHA', payload.before_sha],
    ['CI_BUILD_REF_NAME', payload.ref ?? ''],
    ['CI_BUILD_ID', String(payload.id)],
    ['CI_BUILD_REPO', payload.repo_url],
    ['CI_BUILD_TOKEN', payload.token],
    ['CI_PROJECT_ID', String(payload.project_id)],
    ['CI_PROJECT_DIR', dirs.projectDir],
    ['CI_BUILDS_DIR', dirs.buildsDir],
    ['CI_SERVER', 'yes'],
    ['CI_SERVER_NAME', 'GitLab CI'],
    ['CI_SERVER_VERSION', ''],
    ['CI_SERVER_REVISION', ''],
    ['GITLAB_CI', 'true'],
    ...payload.variables.map((variable): [string, string] => [variable.key, variable.value ?? '']),
  ];
  const raw = new Map(list);
  const expanded = new Map<string, string>();
  for (const [key, value] of raw) expanded.set(key, expand(value, raw));
  return expanded;
}

/** `$NAME` and `${NAME}` replaced by their values in `variables`, as Go's os.Expand does. */
export function expand(text: string, variables: Map<string, string>): string {
  return text.replace(
    /\$(?:\{([^}]*)\}|([A-Za-z0-9_]+))/g,
    (_, braced: string | undefined, bare: string | undefined) => variables.get(braced ?? bare ?? '') ?? '',
  );
}
