import fs from 'node:fs';
import path from 'node:path';

/*
 * How a test starts one of the repository's entry points (src/main.ts, a test/support script) in a
 * node process of its own. Run from the sources (`npx tsx --test …`), that is `node --import tsx
 * x.ts`; run from npm test's compiled mirror (.test-build/, made by scripts/test.mjs), the mirror's
 * x.js with no loader: tsx's hooks cost about 1.5 s of CPU in every process that loads the app.
 * The mirror holds bundles of the test files and of the entry points named in scripts/test.mjs
 * (PROCESS_ENTRIES): a new entry point started here is added there.
 */

const compiled = import.meta.filename.endsWith('.js');

/** The folder of the nearest package.json up from `dir` (the mirror has none of its own). */
function packageRoot(dir: string): string {
  for (let at = dir; ; at = path.dirname(at)) {
    if (fs.existsSync(path.join(at, 'package.json'))) return at;
    if (path.dirname(at) === at) throw new Error(`no package.json above ${dir}`);
  }
}

/** The repository's root (where `npm start` runs, where node_modules is). */
export const ROOT = packageRoot(import.meta.dirname);

/** The tree this file runs from: ROOT, or the mirror under it. */
const TREE = path.resolve(import.meta.dirname, '../..');

/** node's arguments that run `entry`, a module named from the root without its extension ('src/main'). */
export function nodeArgs(entry: string): string[] {
  return compiled ? [path.join(TREE, `${entry}.js`)] : ['--import', 'tsx', path.join(ROOT, `${entry}.ts`)];
}

/** node's arguments that run the `forge` command line; its own arguments follow. */
export function forgeArgs(): string[] {
  return nodeArgs('src/main');
}
