#!/usr/bin/env node
// `npx forge …` and `npm start`: Forge's command line, in this one process. It runs the compiled
// program (dist/, made by `npm run build`, which `npm ci` runs through `prepare`). From a checkout
// not built yet, or one whose sources changed since (a `git pull`), it runs the sources through tsx
// and says so: running an older build by mistake would be worse than starting slower.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'dist', 'main.js');

/** The newest modification time of a file under `dir`. */
function newest(dir) {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
  }
  return latest;
}

const builtAt = fs.existsSync(built) ? fs.statSync(built).mtimeMs : 0;
const sources = path.join(root, 'src');
if (builtAt > 0 && (!fs.existsSync(sources) || newest(sources) <= builtAt)) {
  await import(new URL('../dist/main.js', import.meta.url).href);
} else {
  if (builtAt > 0)
    process.stderr.write('forge: src/ changed since the last build: running the sources (npm run build makes starting quicker)\n');
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
