import crypto from 'node:crypto';

/**
 * Forge's one script, for the little that pays: a `<select data-autosubmit>` (the branch and tag
 * switcher) sends its form when changed. Pages work without it: the form has its own button.
 */
export const SCRIPT = `document.querySelectorAll('select[data-autosubmit]').forEach(function (select) {
  select.addEventListener('change', function () { select.form.submit(); });
});
`;

/** Changes with the script, so that it can be cached for a year. */
export const SCRIPT_VERSION = crypto.hash('sha256', SCRIPT, 'hex').slice(0, 12);
export const SCRIPT_PATH = '/assets/forge.js';
