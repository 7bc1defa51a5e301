import { html, type SafeHtml } from '../../html';

/** A pipeline's or a build's status as a labelled badge (the word is always shown, colour only helps). */
export function statusBadge(status: string): SafeHtml {
  return html`<span class="ci-status ci-${status}">${status}</span>`;
}

/** Seconds as GitLab's pages wrote a duration: `1h 2m 3s`, `4m 5s`, `6s`; nothing when unknown. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '';
  const whole = Math.max(0, Math.round(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  if (hours > 0) return `${hours}h ${minutes}m ${rest}s`;
  if (minutes > 0) return `${minutes}m ${rest}s`;
  return `${rest}s`;
}

/** A build's duration: from its start to its end, or to now while it runs. */
export function buildDuration(build: { started_at: string | null; finished_at: string | null }, now = Date.now()): number | null {
  if (!build.started_at) return null;
  const end = build.finished_at ? Date.parse(build.finished_at) : now;
  return (end - Date.parse(build.started_at)) / 1000;
}

/** A time as a short UTC date and time, with the exact value for machines. */
export function timeOf(value: string | null | undefined): SafeHtml {
  if (!value) return html``;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return html``;
  const iso = date.toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}
