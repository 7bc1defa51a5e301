import { html, type SafeHtml } from '../../html';
import type { BroadcastMessage } from '../../../services/broadcast-messages/broadcast-messages';
import { isActive } from '../../../services/broadcast-messages/broadcast-messages';
import type { FieldErrors } from '../../form-errors';
import { renderMarkdown } from '../../markdown';
import { actionButton } from '../ci/action-button';
import { timeOf } from '../ci/status';
import { formField, hiddenToken, otherErrors } from '../form-field';
import { pager } from '../pager';
import { adminNav, type Paged } from './nav';
import { broadcastBanner } from '../broadcast';

export interface BroadcastForm {
  csrfToken: string;
  values: { message: string; starts_at: string; ends_at: string };
  errors?: FieldErrors;
  /** The message as every page would show it, when the form asked for a preview. */
  preview?: boolean;
}

const FIELDS = ['message', 'starts_at', 'ends_at'];

/** `/admin/broadcast_messages`: every message with its window and removal, and a form for a new one with a preview. */
export function broadcastMessagesPage(list: Paged<BroadcastMessage>, form: BroadcastForm): SafeHtml {
  const { csrfToken, values, errors } = form;
  const messageErrors = errors?.message ?? [];
  return html`${adminNav('Messages')}
<h1>Broadcast messages (${list.total})</h1>
<p class="muted">A message is shown at the top of every page between its start and its end.</p>
<div class="table-wrap"><table class="admin">
<thead><tr><th scope="col">Message</th><th scope="col">Starts</th><th scope="col">Ends</th><th scope="col">Status</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
<tbody>${list.items.map(
    (message) => html`<tr>
<td>${renderMarkdown(message.message)}</td>
<td>${timeOf(message.starts_at)}</td>
<td>${timeOf(message.ends_at)}</td>
<td>${isActive(message) ? 'active' : Date.parse(message.starts_at) > Date.now() ? 'scheduled' : 'expired'}</td>
<td>${actionButton(`/admin/broadcast_messages/${message.id}/delete`, `Remove message ${message.id}`, csrfToken)}</td>
</tr>`,
  )}</tbody></table></div>
${pager('/admin/broadcast_messages', list.page, list.perPage, list.total)}
<section aria-labelledby="new-message">
<h2 id="new-message">New broadcast message</h2>
${form.preview && values.message.trim() !== '' && html`<h3>Preview</h3>${broadcastBanner(values)}`}
${otherErrors(errors, FIELDS)}
<form class="stacked" method="post" action="/admin/broadcast_messages">
${hiddenToken(csrfToken)}
<label for="field-message">Message (Markdown)</label>
<textarea id="field-message" name="message" rows="3" required${messageErrors.length > 0 ? html` aria-invalid="true" aria-describedby="field-message-error"` : ''}>${values.message}</textarea>
${messageErrors.length > 0 && html`<p class="field-error" id="field-message-error">Message ${messageErrors.join(', ')}</p>`}
${formField({ name: 'starts_at', label: 'Starts at (UTC, as 2016-09-22 12:00; blank for now)', value: values.starts_at, errors })}
${formField({ name: 'ends_at', label: 'Ends at (UTC; blank for an hour after it starts)', value: values.ends_at, errors })}
<button type="submit" name="preview" value="1">Preview</button>
<button type="submit" class="primary">Add broadcast message</button>
</form>
</section>`;
}
