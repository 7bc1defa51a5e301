import { html, type SafeHtml } from '../../html';
import type { MergeRequestVersionRow } from '../../../services/merge-requests/types';
import type { DiffView } from '../diff';
import { viewQuery, type ViewAt } from './line-comments';

export interface VersionsFacts {
  /** The merge request's page. */
  base: string;
  /** Newest first. */
  versions: MergeRequestVersionRow[];
  version: MergeRequestVersionRow;
  start?: MergeRequestVersionRow;
  view: DiffView;
}

/** GitLab numbers versions from the first push: version 1 is the oldest. */
const numberOf = (versions: MergeRequestVersionRow[], version: MergeRequestVersionRow) => versions.length - versions.indexOf(version);
const shortSha = (version: MergeRequestVersionRow) => (version.head_commit_sha ?? '').slice(0, 8);
const when = (version: MergeRequestVersionRow) => version.created_at.slice(0, 16).replace('T', ' ');

/** The view the page shows, as its query asks for it (the latest version against its base asks nothing). */
export function askedOf(facts: Pick<VersionsFacts, 'versions' | 'version' | 'start'>): ViewAt {
  const latest = facts.version.id === facts.versions[0]?.id;
  return { diffId: latest && !facts.start ? undefined : facts.version.id, startSha: facts.start?.head_commit_sha ?? undefined };
}

/**
 * GitLab's version switcher on the Changes tab, without its dropdowns' JavaScript: every version
 * (each push that changed the merge request) with its head, commits and time, linked to its diff;
 * a form to compare one version with an older one or with the base; and the inline or side-by-side view.
 */
export function versionsBar(facts: VersionsFacts): SafeHtml {
  const { base, versions, version, start } = facts;
  const at = askedOf(facts);
  const shown = numberOf(versions, version);
  const number = (each: MergeRequestVersionRow) => numberOf(versions, each);
  return html`<section class="mr-versions" aria-labelledby="versions-heading">
<h2 id="versions-heading">Versions</h2>
<p class="shown-version">Showing <strong>version ${shown}</strong>${version.id === versions[0].id ? ' (latest)' : ''} compared with <strong>${start ? `version ${number(start)}` : 'base'}</strong></p>
<table><thead><tr><th scope="col">Version</th><th scope="col">Head</th><th scope="col">Commits</th><th scope="col">Pushed</th></tr></thead>
<tbody>${versions.map(
    (each) =>
      html`<tr class="version" id="version_${each.id}"><td><a href="${base}/diffs?diff_id=${each.id}"${each.id === version.id && !start ? html` aria-current="page"` : ''}>version ${number(each)}</a>${each.id === versions[0].id ? html` <span class="badge">latest</span>` : ''}</td><td><code>${shortSha(each)}</code></td><td>${each.commits_count} ${each.commits_count === 1 ? 'commit' : 'commits'}</td><td>${when(each)}</td></tr>`,
  )}</tbody></table>
<form class="inline version-compare" method="get" action="${base}/diffs">
<label for="version_diff_id">Show</label> <select id="version_diff_id" name="diff_id">${versions.map(
    (each) => html`<option value="${each.id}"${each.id === version.id ? ' selected' : ''}>version ${number(each)}</option>`,
  )}</select>
<label for="version_start_sha">compared with</label> <select id="version_start_sha" name="start_sha"><option value="">base</option>${versions
    .filter((each) => each.id < version.id)
    .map(
      (each) =>
        html`<option value="${each.head_commit_sha ?? ''}"${each.id === start?.id ? ' selected' : ''}>version ${number(each)} (${shortSha(each)})</option>`,
    )}</select>
<button type="submit">Compare</button>
</form>
<p class="diff-views">View: ${(['inline', 'parallel'] as const).map(
    (view) =>
      html`<a href="${base}/diffs${viewQuery(at) || '?'}${viewQuery(at) ? '&' : ''}view=${view}"${facts.view === view ? html` aria-current="true"` : ''}>${view === 'inline' ? 'Inline' : 'Side-by-side'}</a> `,
  )}</p>
</section>`;
}
