#!/usr/bin/env node
// `npm test [-- test/x/y.test.ts … | --test-name-pattern=…]`: compiles src/ and test/ once with esbuild
// (one .js per .ts, no bundling) into .test-build/, then runs the compiled test files with node's
// test runner and no TypeScript loader. Under `--import tsx` every test process (and every forge
// process a test spawns) pays about 1.5 s of CPU for the loader's hooks alone; 243 files x 2 databases.
// Stack traces name the .js files unless NODE_OPTIONS=--enable-source-maps (off by default: it slows
// every thrown error); the source maps beside each file point back to the .ts.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, stop } from 'esbuild';
import { copyNonTypeScript, rewriteRelativeImports, walk } from './relative-imports.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mirror = path.join(root, '.test-build');
const trees = ['src', 'test'];

fs.rmSync(mirror, { recursive: true, force: true });
await build({
  entryPoints: trees.flatMap((tree) => walk(path.join(root, tree)).filter((file) => file.endsWith('.ts'))),
  outdir: mirror,
  outbase: root,
  bundle: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  // As tsconfig.json's target ES2022 implies, and as tsx compiles them: class fields are defined.
  tsconfigRaw: { compilerOptions: { useDefineForClassFields: true } },
});
// esbuild's service process would otherwise stay for the whole run.
await stop();
rewriteRelativeImports(mirror, root);
for (const tree of trees) copyNonTypeScript(path.join(root, tree), path.join(mirror, tree));

/** test/x/y.test.ts (or its .js in the mirror) as the mirror's .js. */
function compiled(file) {
  const relative = path.relative(root, path.resolve(file));
  const inMirror = relative.startsWith(`.test-build${path.sep}`) ? relative : path.join('.test-build', relative);
  return path.join(root, inMirror.replace(/\.ts$/, '.js'));
}

const args = process.argv.slice(2);
const options = args.filter((arg) => arg.startsWith('-'));
const chosen = args.filter((arg) => !arg.startsWith('-')).map(compiled);
for (const file of chosen) if (!fs.existsSync(file)) throw new Error(`no such test file: ${path.relative(root, file)}`);
const files =
  chosen.length > 0
    ? chosen
    : walk(path.join(mirror, 'test'))
        .filter((file) => file.endsWith('.test.js'))
        .sort();

const child = spawn(
  process.execPath,
  ['--test', '--test-concurrency=2', '--test-timeout=600000', ...options, ...files.map((file) => path.relative(root, file))],
  { cwd: root, stdio: 'inherit' },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
