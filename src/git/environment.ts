import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The environment of every git process Forge starts (`spawnGit`), built once per process.
 *
 * Forge's git serves other people's repositories, so nothing of the machine or of the account
 * Forge runs under may change what it does. A git-lfs package writes `filter.lfs` with
 * `required = true` to /etc/gitconfig (Debian's does): archives then ran git-lfs on LFS pointers,
 * in bare repositories with no LFS server, and failed. A user's ~/.gitconfig can name hooks
 * (`core.hooksPath`), filters, an `uploadpack.packObjectsHook` run on every clone. So:
 * - no system configuration (`GIT_CONFIG_NOSYSTEM`) and no global one (`GIT_CONFIG_GLOBAL`, git
 *   2.32+), no system attributes (`GIT_ATTR_NOSYSTEM`);
 * - `HOME` and `XDG_CONFIG_HOME` in an empty directory of Forge's own, so that no file git looks
 *   for there (`$XDG_CONFIG_HOME/git/attributes`, the default `core.attributesFile`) exists;
 * - no `GIT_*` variable of the caller's environment (GIT_DIR, GIT_CONFIG_PARAMETERS, GIT_ATTR_SOURCE,
 *   GIT_EXEC_PATH, GIT_TRACE…): each could point git at another repository, configuration or
 *   program. Only the TLS trust of imports over HTTPS is kept (`KEPT_GIT_VARIABLES`).
 * What is left is each repository's own configuration, which Forge writes: no filter is defined
 * anywhere, so `.gitattributes` naming one changes nothing (an archive holds LFS pointers, as
 * GitLab 8.12 served them), and the only hooks are Forge's (`push-hook.ts`, given per push).
 */
let built: NodeJS.ProcessEnv | undefined;

/** The one environment of Forge's git processes (the same object every time: callers must not change it). */
export function gitEnvironment(): NodeJS.ProcessEnv {
  built ??= cleanGitEnvironment(process.env, emptyHome());
  return built;
}

/**
 * Where a machine keeps private certificate authorities for imports from its own HTTPS servers;
 * they name trusted certificates, never a repository, a configuration or a program.
 */
const KEPT_GIT_VARIABLES = new Set(['GIT_SSL_CAINFO', 'GIT_SSL_CAPATH']);

/** `source` without its git variables, plus Forge's: a pure function of its arguments. */
export function cleanGitEnvironment(source: NodeJS.ProcessEnv, home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(source)) {
    if (!key.startsWith('GIT_') || KEPT_GIT_VARIABLES.has(key)) env[key] = value;
  }
  return Object.assign(env, {
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    HOME: home,
    XDG_CONFIG_HOME: home,
    // Messages in English (failures are classified by state, but logs should read the same
    // everywhere), never a credential prompt on the server, and replace refs pushed by users never
    // change what others read.
    LC_ALL: 'C',
    LANGUAGE: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_NO_REPLACE_OBJECTS: '1',
  });
}

/** A fresh private directory (mode 0700: no other local user can put a file in it), removed when the process exits. */
function emptyHome(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'forge-git-home-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
