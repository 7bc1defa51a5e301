import { html, trusted, type SafeHtml } from '../../html';
import type { LabelView } from '../../../services/labels/labels';

export interface LabelList {
  projectPath: string;
  labels: LabelView[];
  /** Whether the caller may read the project's merge requests (their counts are shown only then). */
  mergeRequests: boolean;
}

const HEX = /^#[0-9a-f]{3}(?:[0-9a-f]{3})?$/i;

/**
 * A square of the label's colour. The pages' policy allows no inline style, so it is a small SVG
 * image in a `data:` URL; only a `#rgb` or `#rrggbb` colour (what the service accepts) is drawn.
 */
export function swatch(color: string): SafeHtml {
  if (!HEX.test(color)) return html``;
  const svg = `<svg xmlns='http://www.w3.org/2000/svg' width='14' height='14'><rect width='14' height='14' rx='3' fill='${color}'/></svg>`;
  return trusted(`<img class="swatch" alt="" width="14" height="14" src="data:image/svg+xml,${encodeURIComponent(svg)}">`);
}

/** `…/labels`: each label with its colour, description and the counts the caller may see, linking to the filtered lists. */
export function labelListPage(list: LabelList): SafeHtml {
  const filtered = (kind: string, title: string) => `${list.projectPath}/${kind}?label_name[]=${encodeURIComponent(title)}`;
  return html`<h1>Labels</h1>
${
  list.labels.length === 0
    ? html`<p class="muted">This project has no labels.</p>`
    : html`<ul class="issuables labels">${list.labels.map(
        (
          label,
        ) => html`<li>${swatch(label.color)} <a class="label" href="${filtered('issues', label.title)}">${label.title}</a> <code class="muted">${label.color}</code>
${label.description && html`<div>${label.description}</div>`}
<div class="muted"><a href="${filtered('issues', label.title)}">${label.open_issues_count} open issues</a>${
          list.mergeRequests &&
          html` · <a href="${filtered('merge_requests', label.title)}">${label.open_merge_requests_count} open merge requests</a>`
        }</div></li>
`,
      )}</ul>`
}`;
}
