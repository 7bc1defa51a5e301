import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/**
 * A CommonJS package loaded when first asked for, not when the process starts: highlight.js (with
 * its 190 languages), markdown-it and sanitize-html (with postcss), yaml and sshpk are some 400
 * files that every start of the server, of a `forge` command and of a test would read and compile,
 * about half a second of CPU, for pages, pushes and keys that process may never see.
 */
export function lazyPackage<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= load(id) as T;
    return loaded;
  };
}
