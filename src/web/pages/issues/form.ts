import { html, type SafeHtml } from '../../html';
import type { PageContext } from '../../context';
import type { FieldErrors } from '../../form-errors';
import type { MilestoneRow } from '../../../services/milestones/milestones';
import type { User } from '../../../services/users/users';
import { fieldError } from '../issuable-parts';

/** What the form shows: the choices, what was typed, and why it was refused. */
export interface IssueForm {
  action: string;
  heading: string;
  submit: string;
  members: User[];
  milestones: MilestoneRow[];
  labels: string[];
  values: { title?: string; description?: string; assigneeId?: string; milestoneId?: string; labels?: string[] };
  errors?: FieldErrors;
  /** Extra fields (a merge request's branches) before the title. */
  extra?: SafeHtml;
}

export function issuableForm(page: PageContext, form: IssueForm): SafeHtml {
  const { values, errors } = form;
  const chosen = new Set(values.labels ?? []);
  return html`<h1>${form.heading}</h1>
${fieldError(errors, 'base')}
<form class="stacked issuable-form" method="post" action="${form.action}">
<input type="hidden" name="authenticity_token" value="${page.csrfToken}">
${form.extra}
<label for="issuable_title">Title</label>
<input type="text" id="issuable_title" name="title" required maxlength="255" value="${values.title ?? ''}">
${fieldError(errors, 'title')}
<label for="issuable_description">Description</label>
<textarea id="issuable_description" name="description" rows="8">${values.description ?? ''}</textarea>
${fieldError(errors, 'description')}
<label for="issuable_assignee">Assignee</label>
<select id="issuable_assignee" name="assignee_id"><option value="">Unassigned</option>${form.members.map(
    (user) =>
      html`<option value="${user.id}"${values.assigneeId === String(user.id) ? html` selected` : ''}>${user.name} (@${user.username})</option>`,
  )}</select>
${fieldError(errors, 'assignee')}
<label for="issuable_milestone">Milestone</label>
<select id="issuable_milestone" name="milestone_id"><option value="">No milestone</option>${form.milestones.map(
    (milestone) =>
      html`<option value="${milestone.id}"${values.milestoneId === String(milestone.id) ? html` selected` : ''}>${milestone.title}</option>`,
  )}</select>
${fieldError(errors, 'milestone')}
<fieldset><legend>Labels</legend>${
    form.labels.length === 0
      ? html`<span class="muted">This project has no labels.</span>`
      : form.labels.map(
          (label) =>
            html`<label class="checkbox"><input type="checkbox" name="labels" value="${label}"${chosen.has(label) ? html` checked` : ''}> ${label}</label> `,
        )
  }</fieldset>
${fieldError(errors, 'labels')}
<button type="submit" class="primary">${form.submit}</button>
</form>`;
}
