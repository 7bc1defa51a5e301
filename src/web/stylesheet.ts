import crypto from 'node:crypto';

/** Forge's one stylesheet: readable pages on a phone's width and a desktop's, no framework. */
export const STYLESHEET = `
:root { --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg: #fff; --soft: #f6f8fa; --accent: #1f6feb; --danger: #cf222e; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
header.site { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; padding: .6rem 1rem; border-bottom: 1px solid var(--line); background: var(--soft); }
header.site .brand { font-weight: 700; text-decoration: none; color: var(--fg); margin-right: auto; }
header.site form { margin: 0; }
header.site nav.your-work { display: flex; gap: .8rem; }
main { max-width: 64rem; margin: 0 auto; padding: 1rem; }
footer.site { max-width: 64rem; margin: 2rem auto; padding: 1rem; color: var(--muted); border-top: 1px solid var(--line); font-size: .85rem; }
h1 { font-size: 1.6rem; margin: .5rem 0; }
.muted { color: var(--muted); }
.flash { padding: .6rem .8rem; border: 1px solid var(--danger); color: var(--danger); border-radius: 6px; margin: 1rem 0; }
ul.projects { list-style: none; padding: 0; }
ul.projects li { padding: .6rem 0; border-bottom: 1px solid var(--line); }
.badge { font-size: .75rem; border: 1px solid var(--line); border-radius: 1rem; padding: 0 .5rem; color: var(--muted); }
form.stacked { display: grid; gap: .5rem; max-width: 22rem; }
input[type=text], input[type=password] { font: inherit; padding: .4rem .5rem; border: 1px solid var(--line); border-radius: 6px; width: 100%; }
button { font: inherit; padding: .35rem .9rem; border: 1px solid var(--line); border-radius: 6px; background: var(--soft); cursor: pointer; }
button.primary { background: var(--accent); color: #fff; border-color: var(--accent); }
.clone { display: grid; gap: .3rem; margin: 1rem 0; }
.clone code, .commit code { background: var(--soft); padding: .1rem .3rem; border-radius: 4px; overflow-wrap: anywhere; }
.commit { padding: .6rem .8rem; border: 1px solid var(--line); border-radius: 6px; }
article.readme { border: 1px solid var(--line); border-radius: 6px; margin-top: 1rem; }
article.readme > h2 { margin: 0; padding: .5rem .8rem; font-size: 1rem; background: var(--soft); border-bottom: 1px solid var(--line); }
.markdown { padding: 0 1rem; overflow-wrap: anywhere; }
.markdown pre { background: var(--soft); padding: .8rem; overflow-x: auto; border-radius: 6px; }
.markdown table { border-collapse: collapse; } .markdown th, .markdown td { border: 1px solid var(--line); padding: .3rem .6rem; }
.markdown img { max-width: 100%; }
.task-list-item { list-style: none; } .task-list-item input { margin: 0 .3rem 0 -1.3rem; }
.hljs-keyword, .hljs-selector-tag, .hljs-built_in { color: #cf222e; } .hljs-string, .hljs-attr { color: #0a3069; }
.hljs-comment { color: #6e7781; font-style: italic; } .hljs-number, .hljs-literal { color: #0550ae; } .hljs-title { color: #8250df; }
nav.tabs { display: flex; flex-wrap: wrap; gap: .2rem 1rem; border-bottom: 1px solid var(--line); margin: .5rem 0 1rem; padding-bottom: .4rem; }
nav.tabs a { text-decoration: none; } nav.tabs a[aria-current=page] { font-weight: 700; color: var(--fg); }
h1 a { color: inherit; text-decoration: none; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
.repo-bar { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; margin-bottom: .8rem; }
.ref-switcher { display: flex; gap: .4rem; align-items: center; margin: 0; } .ref-switcher select { font: inherit; max-width: 14rem; }
.crumbs { overflow-wrap: anywhere; }
table.tree { width: 100%; border-collapse: collapse; } table.tree td, table.tree th { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); }
.blob { border: 1px solid var(--line); border-radius: 6px; overflow: hidden; }
.blob-head { display: flex; flex-wrap: wrap; gap: .3rem 1rem; padding: .5rem .8rem; background: var(--soft); border-bottom: 1px solid var(--line); }
.blob .image, .blob .download { padding: 1rem; } .blob .image img { max-width: 100%; }
.code-wrap, table.code, table.diff { width: 100%; border-collapse: collapse; font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; }
table.code, table.diff { display: block; overflow-x: auto; }
table.code td, table.diff td { padding: 0 .6rem; vertical-align: top; white-space: pre; }
a.line-comment { margin-right: .3rem; text-decoration: none; } tr.line-notes td { white-space: normal; font-family: system-ui, sans-serif; padding: .5rem; background: var(--soft); }
td.num { text-align: right; color: var(--muted); user-select: none; min-width: 3rem; } td.num a { color: inherit; text-decoration: none; }
table.code tr:target { background: #fff8c5; }
td.blame-commit { white-space: normal; min-width: 14rem; max-width: 20rem; border-right: 1px solid var(--line); border-top: 1px solid var(--line); font: 13px/1.4 system-ui, sans-serif; }
.diff-file { border: 1px solid var(--line); border-radius: 6px; margin: 1rem 0; overflow: hidden; }
.diff-file > summary { padding: .5rem .8rem; background: var(--soft); cursor: pointer; overflow-wrap: anywhere; }
.diff-note { padding: .5rem .8rem; margin: 0; }
tr.add { background: #e6ffec; } tr.del { background: #ffebe9; } tr.hunk, tr.note { background: #ddf4ff; color: var(--muted); }
td.src.add { background: #e6ffec; } td.src.del { background: #ffebe9; } td.src.empty { background: var(--soft); } table.diff.parallel td.src { width: 50%; }
.mr-versions table { border-collapse: collapse; } .mr-versions td, .mr-versions th { padding: .2rem .6rem; text-align: left; } .diff-views a[aria-current] { font-weight: bold; }
.additions { color: #1a7f37; } .deletions { color: var(--danger); }
ul.commits, ul.refs { list-style: none; padding: 0; } ul.commits li, ul.refs li { padding: .5rem 0; border-bottom: 1px solid var(--line); }
.pager { display: flex; gap: 1rem; margin: 1rem 0; }
.swatch { vertical-align: -2px; } progress { vertical-align: middle; margin-right: .5rem; }
pre.message { white-space: pre-wrap; background: var(--soft); padding: .6rem; border-radius: 6px; }
.compare-form { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; margin: 1rem 0; } .compare-form input { width: auto; }
.status { font-weight: 600; } .status-success { color: #1a7f37; } .status-failed { color: var(--danger); }
.project-nav { display: flex; flex-wrap: wrap; gap: .3rem 1rem; border-bottom: 1px solid var(--line); margin-bottom: 1rem; padding-bottom: .4rem; }
.project-nav a[aria-current=page] { font-weight: 700; color: var(--fg); text-decoration: none; }
.table-wrap { overflow-x: auto; } table.ci-table { border-collapse: collapse; width: 100%; }
table.ci-table th, table.ci-table td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid var(--line); white-space: nowrap; }
.ci-status { display: inline-block; font-size: .8rem; font-weight: 600; border: 1px solid currentColor; border-radius: 1rem; padding: 0 .55rem; color: var(--muted); }
.ci-success { color: #1a7f37; } .ci-failed { color: var(--danger); } .ci-running { color: var(--accent); } .ci-pending, .ci-created { color: #9a6700; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .8rem 0; } form.inline { display: inline; margin: 0; }
a.button { padding: .35rem .9rem; border: 1px solid var(--line); border-radius: 6px; background: var(--soft); text-decoration: none; }
ul.builds { list-style: none; padding: 0; } ul.builds li { padding: .35rem 0; border-bottom: 1px solid var(--line); }
dl.build-facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; } dl.build-facts dd { margin: 0; overflow-wrap: anywhere; }
pre.trace { background: #1f2328; color: #e6edf3; padding: .8rem; border-radius: 6px; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; font-size: .85rem; min-height: 4rem; }
.pager { display: flex; gap: 1rem; margin: 1rem 0; }
.field-error { color: var(--danger); font-size: .85rem; margin: 0; }
.notice { padding: .6rem .8rem; border: 1px solid #1a7f37; color: #1a7f37; border-radius: 6px; margin: 1rem 0; }
.broadcast { padding: .4rem 1rem; background: #e75e40; color: #fff; } .broadcast a { color: #fff; } .broadcast p { margin: 0; }
table.admin { border-collapse: collapse; width: 100%; } table.admin th, table.admin td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid var(--line); }
textarea { font: inherit; padding: .4rem .5rem; border: 1px solid var(--line); border-radius: 6px; width: 100%; }
input[type=email] { font: inherit; padding: .4rem .5rem; border: 1px solid var(--line); border-radius: 6px; width: 100%; }
ul.search-code { list-style: none; padding: 0; } ul.search-code pre { background: var(--soft); padding: .3rem .6rem; border-radius: 6px; overflow-x: auto; margin: .3rem 0 .8rem; }
`;

/** Changes with the stylesheet, so that it can be cached for a year. */
export const STYLESHEET_VERSION = crypto.hash('sha256', STYLESHEET, 'hex').slice(0, 12);
export const STYLESHEET_PATH = '/assets/forge.css';
