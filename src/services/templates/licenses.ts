import fs from 'node:fs';
import { createRequire } from 'node:module';

/** One license of choosealicense.com: its front matter and its text. */
export interface License {
  key: string;
  name: string;
  nickname: string | null;
  featured: boolean;
  htmlUrl: string;
  sourceUrl: string;
  description: string;
  conditions: string[];
  permissions: string[];
  limitations: string[];
  content: string;
}

/** The front matter and body of a license as `@rexxars/choosealicense-list` ships them. */
interface PackagedLicense {
  title: string;
  nickname?: string | null;
  featured?: boolean;
  description: string;
  conditions?: string[];
  permissions?: string[];
  limitations?: string[];
  urls: { opensource: string };
  body: string;
}

/**
 * The catalogue GitLab 8.12 serves: the licenses of licensee 8.0.0, in its
 * (alphabetical) order. choosealicense.com has grown since, so the keys are
 * pinned and only their texts and metadata come from the package.
 */
export const LICENSE_KEYS = [
  'agpl-3.0',
  'apache-2.0',
  'artistic-2.0',
  'bsd-2-clause',
  'bsd-3-clause',
  'cc0-1.0',
  'epl-1.0',
  'gpl-2.0',
  'gpl-3.0',
  'isc',
  'lgpl-2.1',
  'lgpl-3.0',
  'mit',
  'mpl-2.0',
  'unlicense',
] as const;

/** Reads the packaged licenses once; a pinned key the package lacks is a broken install. */
export function loadLicenses(): License[] {
  const file = createRequire(import.meta.url).resolve('@rexxars/choosealicense-list/licenses.json');
  const packaged = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, PackagedLicense>;
  const bySpdxKey = new Map(Object.entries(packaged).map(([id, license]) => [id.toLowerCase(), license]));
  return LICENSE_KEYS.map((key) => {
    const license = bySpdxKey.get(key);
    if (!license) throw new Error(`@rexxars/choosealicense-list has no license "${key}"`);
    return {
      key,
      name: license.title,
      nickname: license.nickname || null,
      featured: license.featured === true,
      // licensee's `License#url`, built from the key.
      htmlUrl: `http://choosealicense.com/licenses/${key}/`,
      sourceUrl: license.urls.opensource,
      description: license.description,
      conditions: license.conditions ?? [],
      permissions: license.permissions ?? [],
      limitations: license.limitations ?? [],
      content: license.body,
    };
  });
}

// GitLab 8.12's placeholder patterns (lib/api/license_templates.rb).
const YEAR = /[<{[](year|yyyy)[>}\]]/gi;
const PROJECT = /[<{[](project|description|one\sline\s.+\swhat\sit\sdoes\.)[>}\]]/gi;
const FULLNAME = /[<{[](fullname|name\sof\s(author|copyright\sowner))[>}\]]/gi;

export interface Placeholders {
  year: number;
  /** Left as a placeholder when absent. */
  project?: string;
  fullname?: string;
}

/**
 * Fills the year always, the project and the copyright holder when given.
 * Values are inserted literally: GitLab's `gsub!` read `\0`-style escapes in them.
 */
export function fillPlaceholders(content: string, values: Placeholders): string {
  let filled = content.replace(YEAR, () => String(values.year));
  const { project, fullname } = values;
  if (project) filled = filled.replace(PROJECT, () => project);
  if (fullname) filled = filled.replace(FULLNAME, () => fullname);
  return filled;
}
