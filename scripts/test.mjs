#!/usr/bin/env node
// `npm test [-- test/x/y.test.ts … | --test-name-pattern=…]`: compiles src/ and test/ once with esbuild
// into .test-build/, then runs the compiled test files with node's test runner and no TypeScript
// loader (under `--import tsx` every process that loads the app paid about 1.5 s of CPU for the
// loader's hooks alone).
//
// Each test file, and each entry point a test starts in a process of its own (src/main,
// test/support/migrate-at), is bundled with what it imports from src/ and test/, the code they share
// split into chunks (so a test and the server it starts hold one copy of each module), and the
// packages left to node_modules. Loading the app as some 800 files cost each process about 0.9 s
// of CPU more than loading it as a few dozen chunks, in every test file and every forge process a
// test starts.
// In each module `import.meta.url`, `.filename` and `.dirname` name the file it would be without
// bundling (.test-build/src/…/x.js), beside which the files that are not TypeScript are copied.
//
// Stack traces name the .js files unless NODE_OPTIONS=--enable-source-maps (off by default: it slows
// every thrown error); the source maps beside each file point back to the .ts.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, stop } from 'esbuild';
import { copyNonTypeScript, walk } from './relative-imports.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mirror = path.join(root, '.test-build');
const trees = ['src', 'test'];

/** Entry points a test runs in a node process of its own (test/support/node-entry.ts), besides the tests. */
const PROCESS_ENTRIES = ['src/main.ts', 'test/support/migrate-at.ts'];

/** Where `file` (a .ts under root) would be compiled without bundling. */
const unbundled = (file) => path.join(mirror, path.relative(root, file)).replace(/\.ts$/, '.js');

/** Gives each module's `import.meta` its unbundled place, where the files it reads beside itself are. */
const importMetaAsUnbundled = {
  name: 'import-meta-as-unbundled',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await fs.promises.readFile(args.path, 'utf8');
      if (!text.includes('import.meta')) return { contents: text, loader: 'ts' };
      const file = unbundled(args.path);
      return {
        contents: text
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(file).href))
          .replaceAll('import.meta.filename', JSON.stringify(file))
          .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(file))),
        loader: 'ts',
      };
    });
  },
};

fs.rmSync(mirror, { recursive: true, force: true });
await build({
  entryPoints: [
    ...walk(path.join(root, 'test')).filter((file) => file.endsWith('.test.ts')),
    ...PROCESS_ENTRIES.map((entry) => path.join(root, entry)),
  ],
  outdir: mirror,
  outbase: root,
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  packages: 'external',
  plugins: [importMetaAsUnbundled],
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
