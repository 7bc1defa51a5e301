import fs from 'node:fs/promises';
import path from 'node:path';

/*
 * What of DATA_DIR a backup copies as files. Everything but: the SQLite database (saved as rows),
 * the repositories (saved as of the database's snapshot, `repositories.ts`), the secrets (saved
 * apart), and what is only ever temporary.
 */

/** Secrets kept apart from the archive, in `<archive>.secrets`. */
export const SECRET_FILES = ['secret.key', 'ssh_host_ed25519_key'];

const NOT_FILES = new Set(['forge.db', 'forge.db-wal', 'forge.db-shm', 'forge.db-journal', 'repositories', 'lost+found', ...SECRET_FILES]);

/** Temporary files of the file store and probes of `forge admin check`. */
const isTemporary = (relative: string): boolean => relative === 'files/.tmp' || /(^|\/)\.forge-check-/.test(relative);

/** DATA_DIR's files to copy, relative to it, in a stable order. */
export async function* dataFiles(dataDir: string, relative = ''): AsyncGenerator<string> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(path.join(dataDir, relative), { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if ((relative === '' && NOT_FILES.has(entry.name)) || isTemporary(child)) continue;
    if (entry.isDirectory()) yield* dataFiles(dataDir, child);
    else if (entry.isFile()) yield child;
  }
}

/** What DATA_DIR holds (a few names), or nothing when it is missing or empty: the only DATA_DIR a restore writes into. */
export async function dataDirContents(dataDir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dataDir)).filter((name) => name !== 'lost+found').sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
