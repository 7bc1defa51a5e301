import { html, type SafeHtml } from './html';
import { STYLESHEET_PATH, STYLESHEET_VERSION } from './stylesheet';
import type { PageContext } from './context';
import { MAX_SEARCH_TERM } from '../services/search/terms';
import { broadcastBanner } from './pages/broadcast';
import type { WorkCounts } from '../services/users/work-counts';

/** The signed-in user's assigned work, as GitLab's top bar counts it, each count leading to its dashboard list. */
function workCounts(counts: WorkCounts): SafeHtml {
  const link = (href: string, label: string, id: string, count: number) =>
    html`<a href="${href}">${label} <span class="badge" id="${id}">${String(count)}</span></a>`;
  return html`<nav class="your-work" aria-label="Your work">${link('/dashboard/issues', 'Issues', 'assigned-issues-count', counts.assignedIssues)}
${link('/dashboard/merge_requests', 'Merge requests', 'assigned-merge-requests-count', counts.assignedMergeRequests)}
${link('/dashboard/todos', 'Todos', 'todos-count', counts.pendingTodos)}</nav>`;
}

/** The one page frame: a header with sign in or out, the main landmark, a footer. */
export function layout(page: PageContext, title: string, body: SafeHtml): SafeHtml {
  const user = page.user;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Forge</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}?v=${STYLESHEET_VERSION}">
</head>
<body>
<header class="site">
<a class="brand" href="/">Forge</a>
<nav aria-label="Site"><a href="/explore/projects">Explore projects</a></nav>
<form class="search" method="get" action="/search" role="search"><label for="site-search" class="visually-hidden">Search</label><input id="site-search" type="search" name="search" placeholder="Search" maxlength="${MAX_SEARCH_TERM}"></form>
${
  user
    ? html`${page.counts && workCounts(page.counts)}
<a href="/u/${user.username}">${user.username}</a>
<form method="post" action="/users/sign_out"><input type="hidden" name="authenticity_token" value="${page.csrfToken}"><button type="submit">Sign out</button></form>`
    : html`<a href="/users/sign_in">Sign in</a>`
}
</header>
${(page.broadcasts ?? []).map(broadcastBanner)}
<main id="content">
${page.notice && html`<p class="notice flash" role="status" id="flash-notice">${page.notice}</p>`}
${body}
</main>
<footer class="site">Forge</footer>
</body>
</html>
`;
}
