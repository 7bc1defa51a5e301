import { html, type SafeHtml } from '../../html';
import type { PageContext } from '../../context';
import type { FieldErrors } from '../../form-errors';
import type { Project } from '../../../services/projects/types';
import { projectPath } from '../../paths';
import { formField, hiddenToken, otherErrors } from '../form-field';
import { repositoryHeader } from '../repository/header';
import { textArea } from './fields';

export interface NewBranchValues {
  branchName?: string;
  ref?: string;
}

/** `…/branches/new`: a name and the branch, tag or commit it starts from. */
export function newBranchPage(page: PageContext, project: Project, form: { values: NewBranchValues; errors?: FieldErrors }): SafeHtml {
  const { values, errors } = form;
  return html`${repositoryHeader(project, 'branches')}
<h2>New branch</h2>
${otherErrors(errors, ['branch_name', 'ref'])}
<form class="stacked" method="post" action="${projectPath(project)}/branches">
${hiddenToken(page.csrfToken)}
${formField({ name: 'branch_name', label: 'Branch name', value: values.branchName, errors, required: true })}
${formField({ name: 'ref', label: 'Create from', value: values.ref, errors, required: true })}
<p class="muted">A branch name, a tag or a commit id.</p>
<button type="submit" class="primary">Create branch</button>
</form>`;
}

export interface NewTagValues {
  tagName?: string;
  ref?: string;
  message?: string;
  releaseDescription?: string;
}

/** `…/tags/new`: a name, what it points at, an optional message (an annotated tag) and release notes. */
export function newTagPage(page: PageContext, project: Project, form: { values: NewTagValues; errors?: FieldErrors }): SafeHtml {
  const { values, errors } = form;
  return html`${repositoryHeader(project, 'tags')}
<h2>New tag</h2>
${otherErrors(errors, ['tag_name', 'ref', 'message', 'release_description'])}
<form class="stacked" method="post" action="${projectPath(project)}/tags">
${hiddenToken(page.csrfToken)}
${formField({ name: 'tag_name', label: 'Tag name', value: values.tagName, errors, required: true })}
${formField({ name: 'ref', label: 'Create from', value: values.ref, errors, required: true })}
${textArea({ name: 'message', label: 'Message', value: values.message, errors })}
<p class="muted">With a message, the tag is an annotated one.</p>
${textArea({ name: 'release_description', label: 'Release notes', value: values.releaseDescription, errors })}
<button type="submit" class="primary">Create tag</button>
</form>`;
}
