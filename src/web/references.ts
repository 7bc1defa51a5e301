import type { Services } from '../services/index';
import type { Project } from '../services/projects/types';
import type { ProjectStanding } from '../services/policy';
import type { ReferenceQuery, ResolvedReferences } from '../services/references/references';
import { projectPath } from './paths';

/*
 * GitLab's Markdown references: `#12`, `!3`, `@user` or `@group`, `~label` or `~"two words"`,
 * `%milestone`, commit ids (7 to 40 hex digits), and `group/project#12` across projects. A page
 * parses all of its texts first, resolves them for its caller in one call (a few queries for any
 * number), then renders each text with the links found: a reference the caller may not read stays
 * plain text, so a confidential issue's title never reaches a page.
 */

const NAME = String.raw`[\w?&-](?:[\w?&.-]*[\w?&-])?`;
const PATTERN = new RegExp(
  [
    String.raw`(?<![\w/])(?:(?<path>[\w.-]+\/[\w.-]+))?(?<sigil>[#!])(?<iid>\d{1,9})(?!\w)`,
    String.raw`(?<![\w.+-])@(?<name>[\w](?:[\w.-]*[\w-])?)`,
    String.raw`(?<![\w])~(?<label>"[^"\n]+"|${NAME})`,
    String.raw`(?<![\w])%(?<milestone>"[^"\n]+"|${NAME})`,
    String.raw`(?<![\w/@#!~%.-])(?<commit>[0-9a-f]{7,40})(?![\w-])`,
  ].join('|'),
  'g',
);

const unquote = (value: string): string => (value.startsWith('"') ? value.slice(1, -1) : value);

/** Every reference the texts name, for one look-up. */
export function parseReferences(texts: string[]): ReferenceQuery {
  const query: ReferenceQuery = { issues: [], mergeRequests: [], names: [], labels: [], milestones: [], commits: [] };
  for (const text of texts) {
    for (const match of text.matchAll(PATTERN)) {
      const groups = match.groups!;
      if (groups.iid) {
        const ref = { projectPath: groups.path ?? null, iid: Number(groups.iid) };
        (groups.sigil === '#' ? query.issues : query.mergeRequests).push(ref);
      } else if (groups.name) query.names.push(groups.name);
      else if (groups.label) query.labels.push(unquote(groups.label));
      else if (groups.milestone) query.milestones.push(unquote(groups.milestone));
      else if (groups.commit) query.commits.push(groups.commit);
    }
  }
  return query;
}

export interface ReferenceLink {
  text: string;
  href: string;
  title?: string;
  className: string;
}

/** Splits a run of plain text into text and the links its references resolve to. */
export type ReferenceLinker = (text: string) => Array<string | ReferenceLink>;

/** A linker for the resolved references: anything not resolved is left as it was written. */
export function linkerFor(resolved: ResolvedReferences): ReferenceLinker {
  const issuables = (list: ResolvedReferences['issues'], kind: string) =>
    new Map(list.map((item) => [`${item.project.id}${kind}${item.iid}`, item]));
  const issues = issuables(resolved.issues, '#');
  const mergeRequests = issuables(resolved.mergeRequests, '!');
  const users = new Map(resolved.users.map((user) => [user.username.toLowerCase(), user]));
  const groupPaths = new Map(resolved.groups.map((group) => [group.path.toLowerCase(), group]));
  const labels = new Map(resolved.labels.flatMap((label) => [[label.title, label] as const, [String(label.id), label] as const]));
  const milestones = new Map(
    resolved.milestones.flatMap((milestone) => [[milestone.title, milestone] as const, [String(milestone.iid), milestone] as const]),
  );
  const home = resolved.projects.get('')!;
  const commitOf = (id: string) => resolved.commits.find((commit) => commit.id.startsWith(id.toLowerCase()));

  const link = (groups: Record<string, string | undefined>, text: string): ReferenceLink | undefined => {
    if (groups.iid) {
      const project = resolved.projects.get(groups.path?.toLowerCase() ?? '');
      if (!project) return undefined;
      const found = (groups.sigil === '#' ? issues : mergeRequests).get(`${project.id}${groups.sigil}${groups.iid}`);
      if (!found) return undefined;
      const kind = groups.sigil === '#' ? 'issues' : 'merge_requests';
      return {
        text,
        href: `${projectPath(project)}/${kind}/${found.iid}`,
        title: found.title,
        className: `gfm gfm-${kind === 'issues' ? 'issue' : 'merge_request'}`,
      };
    }
    if (groups.name) {
      const user = users.get(groups.name.toLowerCase());
      if (user) return { text, href: `/u/${encodeURIComponent(user.username)}`, title: user.name, className: 'gfm gfm-project_member' };
      const group = groupPaths.get(groups.name.toLowerCase());
      if (group) return { text, href: `/groups/${encodeURIComponent(group.path)}`, title: group.name, className: 'gfm gfm-project_member' };
      return undefined;
    }
    if (groups.label) {
      const label = labels.get(unquote(groups.label));
      if (!label) return undefined;
      return {
        text,
        href: `${projectPath(home)}/issues?label_name=${encodeURIComponent(label.title)}`,
        title: label.title,
        className: 'gfm gfm-label',
      };
    }
    if (groups.milestone) {
      const milestone = milestones.get(unquote(groups.milestone));
      if (!milestone) return undefined;
      return { text, href: `${projectPath(home)}/milestones/${milestone.iid}`, title: milestone.title, className: 'gfm gfm-milestone' };
    }
    const commit = groups.commit && commitOf(groups.commit);
    if (!commit) return undefined;
    return { text, href: `${projectPath(home)}/commit/${commit.id}`, title: commit.title, className: 'gfm gfm-commit' };
  };

  return (text) => {
    const pieces: Array<string | ReferenceLink> = [];
    let last = 0;
    for (const match of text.matchAll(PATTERN)) {
      const found = link(match.groups!, match[0]);
      if (!found) continue;
      if (match.index > last) pieces.push(text.slice(last, match.index));
      pieces.push(found);
      last = match.index + match[0].length;
    }
    if (last < text.length) pieces.push(text.slice(last));
    return pieces;
  };
}

/** Parses and resolves the references of every text a page shows, for its caller, at once. */
export async function pageReferences(
  services: Services,
  project: Project,
  standing: ProjectStanding,
  texts: Array<string | null | undefined>,
): Promise<ReferenceLinker> {
  const query = parseReferences(texts.filter((text): text is string => !!text));
  return linkerFor(await services.references.resolve(project, standing, query));
}
