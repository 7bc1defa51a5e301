import { html, type SafeHtml } from './html';
import { STYLESHEET_PATH, STYLESHEET_VERSION } from './stylesheet';
import type { PageContext } from './context';
import { MAX_SEARCH_TERM } from '../services/search/terms';
import { broadcastBanner } from './pages/broadcast';

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
    ? html`<a href="/u/${user.username}">${user.username}</a>
<form method="post" action="/users/sign_out"><input type="hidden" name="authenticity_token" value="${page.csrfToken}"><button type="submit">Sign out</button></form>`
    : html`<a href="/users/sign_in">Sign in</a>`
}
</header>
${(page.broadcasts ?? []).map(broadcastBanner)}
<main id="content">
${body}
</main>
<footer class="site">Forge</footer>
</body>
</html>
`;
}
