import crypto from 'node:crypto';

/*
 * The build page's one script: while the build runs it asks `trace.json?offset=N` every second for
 * what was appended, adds it to the log, keeps the view at the bottom when it was there, and stops
 * once the build is finished (then reloads, so the buttons fit the new status). The page reads
 * without it.
 */
export const BUILD_LOG_SCRIPT = `'use strict';
(function () {
  var log = document.getElementById('build-trace');
  if (!log || log.getAttribute('data-complete') === 'true') return;
  var status = document.getElementById('build-status');
  var url = log.getAttribute('data-trace-url');
  var offset = Number(log.getAttribute('data-offset')) || 0;
  function atBottom() { return window.innerHeight + window.scrollY >= document.body.offsetHeight - 40; }
  function poll() {
    fetch(url + '?offset=' + offset, { headers: { accept: 'application/json' }, credentials: 'same-origin' })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (part) {
        if (!part) return setTimeout(poll, 5000);
        var follow = atBottom();
        if (!part.append) log.innerHTML = '';
        if (part.html) log.insertAdjacentHTML('beforeend', part.html);
        offset = part.offset;
        if (status && part.status) { status.textContent = part.status; status.className = 'ci-status ci-' + part.status; }
        if (follow && part.html) window.scrollTo(0, document.body.scrollHeight);
        if (part.complete) { log.setAttribute('data-complete', 'true'); window.location.reload(); return; }
        setTimeout(poll, 1000);
      })
      .catch(function () { setTimeout(poll, 5000); });
  }
  setTimeout(poll, 1000);
})();
`;

export const BUILD_LOG_VERSION = crypto.hash('sha256', BUILD_LOG_SCRIPT, 'hex').slice(0, 12);
export const BUILD_LOG_PATH = '/assets/build-log.js';
