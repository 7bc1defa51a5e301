import { FORGE_RUNNER_VERSION } from './api';
import type { JobPayload } from './payload';

/*
 * The job's environment as gitlab-runner makes it: the server's list (its predefined variables
 * first, then the project's), then the runner's own (`CI_PROJECT_DIR`, `CI_BUILDS_DIR`,
 * `CI_SERVER`…), later entries winning; then `$VAR` and `${VAR}` expanded inside every value
 * against that list (unknown names become empty).
 */

export interface BuildDirs {
  buildsDir: string;
  projectDir: string;
}

export function buildVariables(payload: JobPayload, dirs: BuildDirs): Map<string, string> {
  const list: Array<[string, string]> = [
    ['CI', 'true'],
    ['GITLAB_CI', 'true'],
    ...payload.variables.map((variable): [string, string] => [variable.key, variable.value ?? '']),
    ['CI_PROJECT_DIR', dirs.projectDir],
    ['CI_BUILDS_DIR', dirs.buildsDir],
    ['CI_SERVER', 'yes'],
    ['CI_RUNNER_VERSION', FORGE_RUNNER_VERSION],
    ['CI_RUNNER_EXECUTABLE_ARCH', `${process.platform}/${process.arch}`],
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
