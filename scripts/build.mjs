#!/usr/bin/env node
// `npm run build` (run by `prepare`, so by `npm ci`): compiles src/ to dist/ with tsc, once, so that
// `npm start` and `npx forge` run plain JavaScript in one node process, without a TypeScript loader.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

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

/** Every file under `dir`, as paths. */
function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : [full];
  });
}

// The sources import each other without extensions (`./config`), as tsx and the Bundler resolution
// allow; node's ESM loader needs the file: `./config.js`, or `./db/index.js` for a folder.
const RELATIVE = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.?\/[^'"]*)\2/g;
for (const file of walk(dist).filter((name) => name.endsWith('.js'))) {
  const text = fs.readFileSync(file, 'utf8');
  const fixed = text.replace(RELATIVE, (whole, before, quote, specifier) => {
    const target = path.resolve(path.dirname(file), specifier);
    if (fs.existsSync(`${target}.js`)) return `${before}${quote}${specifier}.js${quote}`;
    if (fs.existsSync(path.join(target, 'index.js'))) return `${before}${quote}${specifier}/index.js${quote}`;
    if (fs.existsSync(target) && fs.statSync(target).isFile()) return whole;
    throw new Error(`${path.relative(root, file)}: cannot resolve ${specifier}`);
  });
  if (fixed !== text) fs.writeFileSync(file, fixed);
}

// Files the code reads beside itself (the .gitlab-ci.yml templates).
for (const file of walk(src).filter((name) => !name.endsWith('.ts'))) {
  const target = path.join(dist, path.relative(src, file));
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(file, target);
}

// bin/forge.mjs runs dist/ only when it is newer than every file of src/.
fs.utimesSync(path.join(dist, 'main.js'), new Date(), new Date());
