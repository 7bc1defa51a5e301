import { html, type SafeHtml } from '../../html';
import type { PageContext } from '../../context';
import type { FieldErrors } from '../../form-errors';
import type { Project } from '../../../services/projects/types';
import { formField, hiddenToken, otherErrors } from '../form-field';
import { breadcrumbs, repositoryHeader } from '../repository/header';
import { textArea } from './fields';

export interface EditorValues {
  fileName?: string;
  content?: string;
  commitMessage?: string;
  targetBranch?: string;
  /** The last commit of the file when the page was drawn (editing): a later one refuses the commit. */
  lastCommitSha?: string;
  createMergeRequest?: boolean;
}

export interface EditorForm {
  kind: 'new' | 'edit';
  project: Project;
  /** The branch the page was opened on. */
  ref: string;
  /** The folder of a new file, or the file edited. */
  path: string;
  action: string;
  values: EditorValues;
  errors?: FieldErrors;
}

const FIELDS = ['file_name', 'content', 'commit_message', 'target_branch', 'file'];

function commitFields(form: EditorForm): SafeHtml {
  const { values, errors } = form;
  return html`${formField({ name: 'commit_message', label: 'Commit message', value: values.commitMessage, errors, required: true })}
${formField({ name: 'target_branch', label: 'Target branch', value: values.targetBranch, errors, required: true })}
<label class="checkbox"><input type="checkbox" name="create_merge_request" value="1"${
    values.createMergeRequest ? html` checked` : ''
  }> Start a new merge request with these changes</label>`;
}

/** `…/new/:ref/*dir` and `…/edit/:ref/*path`: the file's name and content, the commit message and the branch it goes to. */
export function editorPage(page: PageContext, form: EditorForm): SafeHtml {
  const { project, values, errors } = form;
  const heading = form.kind === 'new' ? 'New file' : `Edit ${form.path.slice(form.path.lastIndexOf('/') + 1)}`;
  return html`${repositoryHeader(project, 'files')}
${breadcrumbs(project, form.ref, form.path)}
<h2>${heading}</h2>
${otherErrors(errors, FIELDS)}
<form class="stacked editor" method="post" action="${form.action}">
${hiddenToken(page.csrfToken)}
${form.kind === 'new' && formField({ name: 'file_name', label: 'File name', value: values.fileName, errors, required: true })}
${form.kind === 'edit' && html`<input type="hidden" name="last_commit_sha" value="${values.lastCommitSha ?? ''}">`}
${textArea({ name: 'content', label: 'Content', value: values.content, errors, rows: 18, monospace: true })}
${commitFields(form)}
<button type="submit" class="primary">Commit changes</button>
</form>`;
}

/**
 * The upload beside the new-file form (GitLab's "Upload file"): one file into the folder through
 * the same commit. Its fields have labels of their own, so that each form's are told apart.
 */
export function uploadForm(page: PageContext, form: EditorForm): SafeHtml {
  return html`<details class="upload"><summary>Upload a file instead</summary>
<form class="stacked editor" method="post" action="${form.action}" enctype="multipart/form-data">
${hiddenToken(page.csrfToken)}
<label for="upload-file">File to upload</label>
<input type="file" id="upload-file" name="file" required>
<label for="upload-file-name">Name of the uploaded file</label>
<input type="text" id="upload-file-name" name="file_name" aria-describedby="upload-file-name-hint">
<p class="muted" id="upload-file-name-hint">Leave blank to keep the file's own name.</p>
<label for="upload-commit-message">Upload commit message</label>
<input type="text" id="upload-commit-message" name="upload_commit_message" value="Upload new file" required>
<label for="upload-target-branch">Upload target branch</label>
<input type="text" id="upload-target-branch" name="upload_target_branch" value="${form.ref}" required>
<button type="submit">Upload file</button>
</form></details>`;
}

/** The blob page's delete: a commit message and the branch the deletion goes to. */
export function deleteFileForm(page: { csrfToken: string }, form: { action: string; fileName: string; targetBranch: string }): SafeHtml {
  return html`<details class="delete-file"><summary>Delete</summary>
<form class="stacked" method="post" action="${form.action}">
${hiddenToken(page.csrfToken)}
<input type="hidden" name="_method" value="delete">
${formField({ name: 'commit_message', label: 'Commit message', value: `Delete ${form.fileName}`, required: true })}
${formField({ name: 'target_branch', label: 'Target branch', value: form.targetBranch, required: true })}
<button type="submit">Delete file</button>
</form></details>`;
}
