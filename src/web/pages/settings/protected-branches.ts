import { html, type SafeHtml } from '../../html';
import type { PageContext } from '../../context';
import type { FieldErrors } from '../../form-errors';
import type { Project } from '../../../services/projects/types';
import type { ProtectedBranch } from '../../../services/repository/protected-branches';
import { projectPath } from '../../paths';
import { formField, hiddenToken, otherErrors } from '../form-field';
import { selectField } from '../create/fields';
import { methodButton, settingsFrame } from './frame';

/** Who may push or merge, as GitLab v4's access levels name them (0, 30, 40). */
export const PROTECTION_LEVELS = [
  { value: '40', label: 'Masters' },
  { value: '30', label: 'Developers + Masters' },
  { value: '0', label: 'No one' },
];

const levelOf = (nobody: number, developers: number) => (nobody === 1 ? 'No one' : developers === 1 ? 'Developers + Masters' : 'Masters');

export interface ProtectedBranchesSettings {
  project: Project;
  rules: ProtectedBranch[];
  branches: string[];
  typed?: { name?: string; push?: string; merge?: string; errors?: FieldErrors };
}

/** `…/protected_branches`: the rules (a branch or a wildcard such as `release-*`), who pushes and merges, and the form that adds one. */
export function protectedBranchesPage(page: PageContext, settings: ProtectedBranchesSettings): SafeHtml {
  const { project, typed = {} } = settings;
  const base = `${projectPath(project)}/protected_branches`;
  const body = html`<h2>Protect a branch</h2>
<p class="muted">A protected branch takes no force push and is not deleted; only those allowed push or merge to it.</p>
${otherErrors(typed.errors, ['name', 'push_access_level', 'merge_access_level'])}
<form class="stacked" method="post" action="${base}">
${hiddenToken(page.csrfToken)}
${formField({ name: 'name', label: 'Branch (or wildcard)', value: typed.name, errors: typed.errors, required: true })}
${selectField({ name: 'push_access_level', label: 'Allowed to push', choices: PROTECTION_LEVELS, chosen: typed.push ?? '40', errors: typed.errors })}
${selectField({ name: 'merge_access_level', label: 'Allowed to merge', choices: PROTECTION_LEVELS, chosen: typed.merge ?? '40', errors: typed.errors })}
<button type="submit" class="primary">Protect</button>
</form>
${settings.branches.length > 0 && html`<p class="muted">Branches: ${settings.branches.slice(0, 50).join(', ')}</p>`}
<h2>Protected branches</h2>
${
  settings.rules.length === 0
    ? html`<p class="muted">No branch is protected.</p>`
    : html`<div class="table-wrap"><table class="admin">
<thead><tr><th scope="col">Branch</th><th scope="col">Allowed to push</th><th scope="col">Allowed to merge</th><th scope="col"><span class="visually-hidden">Unprotect</span></th></tr></thead>
<tbody>${settings.rules.map(
        (rule) => html`<tr><td><code>${rule.name}</code></td><td>${levelOf(rule.nobody_can_push, rule.developers_can_push)}</td>
<td>${levelOf(rule.nobody_can_merge, rule.developers_can_merge)}</td>
<td>${methodButton({ action: `${base}/${encodeURIComponent(rule.name)}`, method: 'delete', csrfToken: page.csrfToken, label: 'Unprotect' })}</td></tr>
`,
      )}</tbody></table></div>`
}`;
  return settingsFrame(project, 'protected_branches', body);
}
