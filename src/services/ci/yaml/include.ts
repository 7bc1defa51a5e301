import { CiConfigError, get, isHash, isString, keyText, unknownKeys } from './checks';
import { deepMerge } from './extends';
import { loadYaml } from './load';

/**
 * `include:` (GitLab 12's `Config::External`): files of the same commit (`local`) and of another
 * project of this Forge (`project`, `file`, `ref`), deep-merged in order under the file that
 * includes them, their own includes first. Remote URLs and GitLab's templates are refused.
 */

/** Where `local` files are read: a project's commit. */
export interface IncludeContext {
  projectId: number;
  sha: string;
}

/** What `include` may read; the pipeline's (or the linter's) user decides which projects open. */
export interface IncludeReader {
  /** The text of `path` at the context's commit, or undefined when no such file is there. */
  readLocal(at: IncludeContext, path: string): Promise<string | undefined>;
  /** Another project's ref (its default branch when none is given) for the reading user, or why not. */
  openProject(fullPath: string, ref: string | undefined): Promise<IncludeContext | 'not-found' | 'no-ref'>;
}

/** GitLab's bound on the includes of one pipeline, nested ones counted. */
export const MAX_INCLUDES = 100;

const INCLUDE_KEYS = ['local', 'project', 'file', 'ref', 'remote', 'template'] as const;

type Location =
  | { kind: 'local'; path: string }
  | { kind: 'project'; project: string; files: string[]; ref: string | undefined }
  | { kind: 'remote'; url: string }
  | { kind: 'template'; name: string };

/** The root with its includes merged under it and `include` gone; the root itself when it has none. */
export async function resolveIncludes(root: unknown, reader: IncludeReader, at: IncludeContext | null): Promise<unknown> {
  if (!isHash(root) || get(root, 'include') === undefined) return root;
  const counter = { count: 0 };
  return expand(root, reader, at, counter);
}

async function expand(
  root: Map<unknown, unknown>,
  reader: IncludeReader,
  at: IncludeContext | null,
  counter: { count: number },
): Promise<Map<unknown, unknown>> {
  const own = new Map([...root].filter(([k]) => keyText(k) !== 'include'));
  const raw = get(root, 'include');
  if (raw === undefined) return own;
  let merged = new Map<unknown, unknown>();
  for (const location of locations(raw)) {
    const files = location.kind === 'project' ? location.files : [undefined];
    for (const file of files) {
      counter.count += 1;
      if (counter.count > MAX_INCLUDES) throw new CiConfigError(`Maximum of ${MAX_INCLUDES} nested includes are allowed!`);
      const { text, context, name } = await read(location, file, reader, at);
      const loaded = loadYaml(text);
      if (!loaded.ok || !isHash(loaded.value)) throw new CiConfigError(`Included file \`${name}\` does not have valid YAML syntax!`);
      merged = deepMerge(merged, await expand(loaded.value, reader, context, counter));
    }
  }
  return deepMerge(merged, own);
}

async function read(
  location: Location,
  file: string | undefined,
  reader: IncludeReader,
  at: IncludeContext | null,
): Promise<{ text: string; context: IncludeContext | null; name: string }> {
  switch (location.kind) {
    case 'remote':
      throw new CiConfigError(`Remote file \`${location.url}\` could not be included: remote includes are not supported`);
    case 'template':
      throw new CiConfigError(`Template file \`${location.name}\` could not be included: templates are not supported`);
    case 'local': {
      const path = location.path.replace(/^\/+/, '');
      yamlExtension(location.path);
      if (!at) throw new CiConfigError(`Local file \`${location.path}\` does not have project!`);
      const text = await reader.readLocal(at, path);
      if (text === undefined) throw new CiConfigError(`Local file \`${location.path}\` does not exist!`);
      return { text, context: at, name: location.path };
    }
    case 'project': {
      const name = file!;
      yamlExtension(name);
      const opened = await reader.openProject(location.project, location.ref);
      if (opened === 'not-found') throw new CiConfigError(`Project \`${location.project}\` not found or access denied!`);
      if (opened === 'no-ref') throw new CiConfigError(`Project \`${location.project}\` reference \`${location.ref}\` does not exist!`);
      const text = await reader.readLocal(opened, name.replace(/^\/+/, ''));
      if (text === undefined) throw new CiConfigError(`Project \`${location.project}\` file \`${name}\` does not exist!`);
      return { text, context: opened, name };
    }
  }
}

function yamlExtension(path: string): void {
  if (!/\.ya?ml$/.test(path)) throw new CiConfigError(`Included file \`${path}\` does not have YAML extension!`);
}

/** `include` as a list of locations: a string, a hash, or an array of either. */
function locations(raw: unknown): Location[] {
  const items = Array.isArray(raw) ? raw : [raw];
  return items.map((item) => {
    if (isString(item)) return /^https?:\/\//.test(item) ? { kind: 'remote', url: item } : { kind: 'local', path: item };
    if (!isHash(item)) throw new CiConfigError('include config should be a hash, a string or an array of hashes and strings');
    const unknown = unknownKeys(item, INCLUDE_KEYS);
    if (unknown.length > 0) throw new CiConfigError(`include config contains unknown keys: ${unknown.join(', ')}`);
    const local = get(item, 'local');
    const project = get(item, 'project');
    const remote = get(item, 'remote');
    const template = get(item, 'template');
    const given = [local, project, remote, template].filter((v) => v !== undefined);
    if (given.length !== 1 || !given.every(isString))
      throw new CiConfigError(`Include \`${describe(item)}\` needs to match exactly one accessor!`);
    if (isString(local)) return { kind: 'local', path: local };
    if (isString(remote)) return { kind: 'remote', url: remote };
    if (isString(template)) return { kind: 'template', name: template };
    const file = get(item, 'file');
    const files = isString(file) ? [file] : Array.isArray(file) && file.length > 0 && file.every(isString) ? file : undefined;
    if (!files) throw new CiConfigError('include config file should be a string or an array of strings');
    const ref = get(item, 'ref');
    if (ref !== undefined && !isString(ref)) throw new CiConfigError('include config ref should be a string');
    return { kind: 'project', project: project as string, files, ref };
  });
}

/** The hash as GitLab's `to_json` shows it in a message. */
function describe(item: Map<unknown, unknown>): string {
  return JSON.stringify(Object.fromEntries([...item].map(([k, v]) => [keyText(k), v])));
}
