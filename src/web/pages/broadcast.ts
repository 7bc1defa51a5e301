import { html, type SafeHtml } from '../html';
import type { BroadcastMessage } from '../../services/broadcast-messages/broadcast-messages';
import { renderMarkdown } from '../markdown';

/**
 * A broadcast message as every page shows it: Markdown, sanitized. Its colours are not applied:
 * the pages' policy forbids inline styles, and a stylesheet cannot know them.
 */
export function broadcastBanner(message: Pick<BroadcastMessage, 'message'>): SafeHtml {
  return html`<div class="broadcast" role="status">${renderMarkdown(message.message)}</div>`;
}
