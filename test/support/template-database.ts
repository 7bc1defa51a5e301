import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../src/db/index';
import { migrateToLatest } from '../../src/db/migrate';
import { ROOT } from './node-entry';

/*
 * On PostgreSQL, a database with every migration run, made once and then copied by `CREATE DATABASE
 * … TEMPLATE` for each test app: 22 migrations in every `startApp` cost about a second more than the
 * copy. Named by a hash of the migrations' sources, so a changed or added migration makes a new one;
 * made under an advisory lock, so test processes starting together make it once. Tests that need an
 * empty or older database (upgrade, restore) ask freshDatabaseUrl for an empty one, as before.
 */

/** Any number the other users of the server do not lock: "forgetpl" in ASCII. */
const LOCK = 0x666f72676574706cn;

function templateName(): string {
  const hash = createHash('sha256');
  const sources = [path.join(ROOT, 'src/db/migrate.ts'), path.join(ROOT, 'src/db/migrations')];
  for (const file of [
    sources[0],
    ...fs
      .readdirSync(sources[1])
      .sort()
      .map((name) => path.join(sources[1], name)),
  ]) {
    hash.update(file.slice(ROOT.length)).update(fs.readFileSync(file));
  }
  return `forge_template_${hash.digest('hex').slice(0, 16)}`;
}

let made: Promise<string> | undefined;

/** The migrated template's name on the server `base` names, made if missing. */
export function migratedTemplate(base: string): Promise<string> {
  made ??= makeTemplate(base);
  return made;
}

async function makeTemplate(base: string): Promise<string> {
  const name = templateName();
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock($1)', [LOCK.toString()]);
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      // Made under another name and renamed when complete: a process killed half-way leaves no half template.
      const building = `${name}_building`;
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${building}`);
      const url = new URL(base);
      url.pathname = `/${building}`;
      const database = openDatabase({ dataDir: '', databaseUrl: url.toString() });
      try {
        await migrateToLatest(database);
      } finally {
        await database.db.destroy();
      }
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    }
    return name;
  } finally {
    await admin.query('SELECT pg_advisory_unlock($1)', [LOCK.toString()]).catch(() => {});
    await admin.end();
  }
}
