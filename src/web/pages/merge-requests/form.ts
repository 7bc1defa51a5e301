import { html, type SafeHtml } from '../../html';
import type { PageContext } from '../../context';
import { fieldError } from '../issuable-parts';
import { issuableForm, type IssueForm } from '../issues/form';

/** The merge request form: the issue form's fields after the two branches, chosen from the project's. */
export interface MergeRequestForm extends Omit<IssueForm, 'extra'> {
  branches: string[];
  sourceBranch?: string;
  targetBranch?: string;
}

function branchSelect(form: MergeRequestForm, field: 'source_branch' | 'target_branch', label: string, chosen: string | undefined) {
  const known = chosen === undefined || chosen === '' || form.branches.includes(chosen);
  return html`<label for="merge_request_${field}">${label}</label>
<select id="merge_request_${field}" name="${field}" required><option value="">Select a branch</option>${form.branches.map(
    (branch) => html`<option value="${branch}"${branch === chosen ? html` selected` : ''}>${branch}</option>`,
  )}${!known && html`<option value="${chosen}" selected>${chosen}</option>`}</select>
${fieldError(form.errors, field)}`;
}

export function mergeRequestForm(page: PageContext, form: MergeRequestForm): SafeHtml {
  const extra = html`${branchSelect(form, 'source_branch', 'Source branch', form.sourceBranch)}
${branchSelect(form, 'target_branch', 'Target branch', form.targetBranch)}`;
  return issuableForm(page, { ...form, extra });
}
