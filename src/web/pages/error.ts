import { html, type SafeHtml } from '../html';

const TITLES: Record<number, string> = {
  400: 'Bad request',
  403: 'Forbidden',
  404: 'Page not found',
  429: 'Too many requests',
  500: 'Something went wrong',
};

export const errorTitle = (status: number): string => TITLES[status] ?? 'Error';

/** One page for every error; a 404 says the same whether the thing is missing or hidden. */
export function errorPage(status: number, detail?: string): SafeHtml {
  return html`<h1>${status}: ${errorTitle(status)}</h1>
<p>${
    detail ??
    (status === 404
      ? 'The page could not be found or you do not have permission to see it.'
      : status === 403
        ? 'The form was stale or came from elsewhere. Go back, reload the page and try again.'
        : 'Please try again later.')
  }</p>`;
}
