// For scripts/build.mjs (dist/), which compiles one .js per .ts: the sources import each other
// without extensions (`./config`), as tsx and the Bundler resolution allow; node's ESM loader needs
// the file: `./config.js`, or `./db/index.js` for a folder. scripts/test.mjs bundles, and shares only
// `walk` and `copyNonTypeScript`.
import fs from 'node:fs';
import path from 'node:path';

const RELATIVE = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.?\/[^'"]*)\2/g;

/** Every file under `dir`, as paths. */
export function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : [full];
  });
}

/** Rewrites the relative imports of every compiled .js file under `dir` to name their file; `root` only names files in errors. */
export function rewriteRelativeImports(dir, root) {
  for (const file of walk(dir).filter((name) => name.endsWith('.js'))) {
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
}

/** Copies the files under `from` that are not TypeScript (templates, fixtures) to the same places under `to`. */
export function copyNonTypeScript(from, to) {
  for (const file of walk(from).filter((name) => !name.endsWith('.ts'))) {
    const target = path.join(to, path.relative(from, file));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(file, target);
  }
}
