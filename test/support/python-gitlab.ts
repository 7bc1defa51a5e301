import { execFile, spawnSync } from 'node:child_process';

/**
 * Why the python-gitlab tests cannot run here (false when they can): a suite `describe(name, { skip: pythonGitlabMissing }, …)`
 * says so instead of failing on a machine without Debian's `python3-gitlab` (`.ci/run` installs it).
 */
export const pythonGitlabMissing: string | false =
  spawnSync('/usr/bin/python3', ['-c', 'import gitlab'], { stdio: 'ignore' }).status === 0
    ? false
    : 'python-gitlab is missing (apt-get install python3-gitlab)';

/**
 * Runs a python-gitlab script (Debian's `python3-gitlab`, 3.12) against a Forge: `gl` is a
 * `gitlab.Gitlab` for `url` acting with `token` (none: anonymous), `gitlab` the module. The
 * script's last line printed is its answer, parsed as JSON (print `json.dumps(...)`).
 * A script that raises fails the call with python's traceback.
 */
export function pythonGitlab(url: string, token: string | undefined, script: string): Promise<any> {
  const prelude = [
    'import json, sys, gitlab',
    `gl = gitlab.Gitlab(${JSON.stringify(url)}${token ? `, private_token=${JSON.stringify(token)}` : ''}, api_version='4')`,
  ].join('\n');
  return new Promise((resolve, reject) => {
    execFile('/usr/bin/python3', ['-c', `${prelude}\n${script}`], { timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`python-gitlab script failed: ${error.message}\n${stderr}`));
      const lines = stdout.trim().split('\n');
      try {
        resolve(JSON.parse(lines[lines.length - 1] ?? 'null'));
      } catch {
        reject(new Error(`python-gitlab script printed no JSON:\n${stdout}\n${stderr}`));
      }
    });
  });
}
