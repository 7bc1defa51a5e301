#!/usr/bin/env node
// `npm run build` (run by `prepare`, so by `npm ci`): compiles src/ to dist/ with tsc, once, so that
// `npm start` and `npx forge` run plain JavaScript in one node process, without a TypeScript loader.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { copyNonTypeScript, rewriteRelativeImports } from './relative-imports.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src');
const dist = path.join(root, 'dist');

fs.rmSync(dist, { recursive: true, force: true });
let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  // `npm ci --omit=dev` leaves TypeScript out: Forge still runs, from the sources through tsx (bin/forge.mjs).
  console.error(
    'forge build: TypeScript is not installed (npm ci --omit=dev?): nothing compiled, npm start will run the sources through tsx',
  );
  process.exit(0);
}
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });

rewriteRelativeImports(dist, root);
// Files the code reads beside itself (the .gitlab-ci.yml templates).
copyNonTypeScript(src, dist);

// bin/forge.mjs runs dist/ only when it is newer than every file of src/.
fs.utimesSync(path.join(dist, 'main.js'), new Date(), new Date());
