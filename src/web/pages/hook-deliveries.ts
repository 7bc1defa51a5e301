import { html, type SafeHtml } from '../html';
import type { HookLog, HookLogSummary } from '../../services/hooks/hook-logs';
import { timeOf } from './ci/status';

/** A delivery's result in a word: the HTTP status, or "error" when nothing was answered. */
function outcome(log: Pick<HookLog, 'response_status' | 'internal_error_message'>): SafeHtml {
  if (log.response_status === null) return html`<span class="badge status-failed">error</span>`;
  const ok = log.response_status >= 200 && log.response_status < 300;
  return html`<span class="badge ${ok ? 'status-success' : 'status-failed'}">${String(log.response_status)}</span>`;
}

/** "Recent deliveries" of a hook (GitLab's hook logs): status, event, when, how long; each opens its own page under `base`. */
export function recentDeliveries(logs: HookLogSummary[], base: string): SafeHtml {
  return html`<section aria-labelledby="recent-deliveries">
<h2 id="recent-deliveries">Recent deliveries</h2>
${
  logs.length === 0
    ? html`<p class="muted">No delivery yet. Deliveries are kept for two days.</p>`
    : html`<div class="table-wrap"><table class="ci-table">
<thead><tr><th scope="col">Status</th><th scope="col">Event</th><th scope="col">When</th><th scope="col">Duration</th><th scope="col"><span class="visually-hidden">Details</span></th></tr></thead>
<tbody>${logs.map(
        (log) => html`<tr>
<td>${outcome(log)}</td>
<td>${log.trigger}${log.test ? html` <span class="badge">test</span>` : ''}</td>
<td>${timeOf(log.created_at)}</td>
<td>${String(log.execution_duration_ms)} ms</td>
<td><a href="${base}/${String(log.id)}">View details<span class="visually-hidden"> of delivery ${String(log.id)}</span></a></td>
</tr>`,
      )}</tbody></table></div>`
}
</section>`;
}

/** Pretty JSON when the text is JSON, else the text as it was. */
function shown(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** One delivery: what was sent (URL, headers, body) and what came back (status, body excerpt) or the error. */
export function deliveryDetails(log: HookLog): SafeHtml {
  return html`<h2>Delivery ${String(log.id)}${log.test ? html` <span class="badge">test</span>` : ''}</h2>
<dl>
<dt>Status</dt><dd>${outcome(log)}</dd>
<dt>Event</dt><dd>${log.trigger}</dd>
<dt>URL</dt><dd><code>${log.url}</code></dd>
<dt>When</dt><dd>${timeOf(log.created_at)}</dd>
<dt>Duration</dt><dd>${String(log.execution_duration_ms)} ms</dd>
${log.internal_error_message !== null && html`<dt>Error</dt><dd>${log.internal_error_message}</dd>`}
</dl>
<h3>Request headers</h3>
<pre class="message">${shown(log.request_headers)}</pre>
<h3>Request body</h3>
<pre class="message">${shown(log.request_data)}</pre>
<h3>Response body</h3>
${log.response_body === null ? html`<p class="muted">No response.</p>` : html`<pre class="message">${log.response_body}</pre>`}`;
}
