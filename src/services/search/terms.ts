/** The longest search term taken; the page's form and the route's schema say the same. */
export const MAX_SEARCH_TERM = 200;

/**
 * The text to look for: blanks (newlines, tabs) made single spaces and trimmed, so that a term is one
 * line for `git grep -F` as for SQL; an empty string means nothing is searched.
 */
export function searchTerm(raw: string | undefined): string {
  return (raw ?? '')
    .replace(/[\s\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, MAX_SEARCH_TERM);
}
