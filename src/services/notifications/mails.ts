import type { Project } from '../projects/types';

/*
 * The words of each mail, after 8.12's `Notify` mailers: the subject names the project and the
 * target (`Project | Title (#iid)`), the body says what happened and by whom, and every mail ends
 * with the link to the page and why the recipient got it. Plain text always; a small HTML part
 * with the same words and the link.
 */

export interface MailContent {
  subject: string;
  /** The lines that say what happened. */
  lines: string[];
  url: string;
  /** Mails about one target share it, so mail readers thread them. */
  threadId?: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  threadId?: string;
}

/** `<EXTERNAL_URL>/<namespace>/<project>`: the page of a project (8.12's `web_url`). */
export function projectUrl(externalUrl: string, project: Project): string {
  return `${externalUrl}/${project.namespace.path}/${project.path}`;
}

export function render(content: MailContent, externalUrl: string, why: string): RenderedMail {
  const host = new URL(externalUrl).host;
  const footer = [`View it on Forge: ${content.url}`, `You're receiving this email because ${why} on ${host}.`];
  const text = [...content.lines, '', '—', ...footer, ''].join('\n');
  const paragraphs = content.lines.filter((line) => line !== '').map((line) => `<p>${escapeHtml(line)}</p>`);
  const html = [
    '<!doctype html><html><body>',
    ...paragraphs,
    `<p style="color:#777;font-size:small">—<br><a href="${escapeHtml(content.url)}">View it on Forge</a><br>`,
    `${escapeHtml(footer[1])}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: content.subject, text, html, threadId: content.threadId };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Why a notification mail came: 8.12's footer. */
export const NOTIFICATION_REASON = 'of your account and its notification settings';
