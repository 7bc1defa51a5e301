import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderDiff } from '../../src/web/pages/diff';
import type { DiffFile } from '../../src/git/diff-types';

const file = (fields: Partial<DiffFile>): DiffFile => ({
  oldPath: 'a.txt',
  newPath: 'a.txt',
  aMode: '100644',
  bMode: '100644',
  diff: '',
  newFile: false,
  renamedFile: false,
  deletedFile: false,
  additions: 0,
  deletions: 0,
  ...fields,
});

describe('renderDiff', () => {
  test('numbers old and new lines from each hunk header, and escapes the text', () => {
    const out = renderDiff([
      file({
        diff: '--- a/a.txt\n+++ b/a.txt\n@@ -10,3 +10,3 @@ ctx\n keep\n-<old>\n+<new>\n keep\n\\ No newline at end of file\n',
        additions: 1,
        deletions: 1,
      }),
    ]).value;
    assert.match(out, /<tr class="context"><td class="num">10<\/td><td class="num">10<\/td><td class="src"> keep<\/td><\/tr>/);
    assert.match(out, /<tr class="del"><td class="num">11<\/td><td class="num"><\/td><td class="src">-&lt;old&gt;<\/td><\/tr>/);
    assert.match(out, /<tr class="add"><td class="num"><\/td><td class="num">11<\/td><td class="src">\+&lt;new&gt;<\/td><\/tr>/);
    assert.match(out, /<tr class="context"><td class="num">12<\/td><td class="num">12<\/td>/);
    assert.match(out, /<tr class="note">/);
    assert.doesNotMatch(out, /\+\+\+ b\/a\.txt/);
  });

  test('renamed, new, deleted and binary files say so', () => {
    const out = renderDiff([
      file({ oldPath: 'old.txt', newPath: 'new.txt', renamedFile: true }),
      file({ newPath: 'added.txt', newFile: true, aMode: '0', diff: '--- /dev/null\n+++ b/added.txt\n@@ -0,0 +1 @@\n+x\n', additions: 1 }),
      file({
        oldPath: 'gone.txt',
        deletedFile: true,
        bMode: '0',
        diff: '--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n',
        deletions: 1,
      }),
      file({ newPath: 'logo.png', diff: 'Binary files a/logo.png and b/logo.png differ\n' }),
    ]).value;
    assert.match(out, /old\.txt → new\.txt<\/strong> <span class="badge">renamed<\/span>/);
    assert.match(out, /File moved without changes/);
    assert.match(out, /added\.txt<\/strong> <span class="badge">new file<\/span>/);
    assert.match(out, /gone\.txt<\/strong> <span class="badge">deleted<\/span>/);
    assert.match(out, /Binary file not shown/);
    assert.match(out, /4 changed files/);
  });

  test('a very large file starts collapsed; the others stay open', () => {
    const big = `--- a/big\n+++ b/big\n@@ -0,0 +1,600 @@\n${'+line\n'.repeat(600)}`;
    const out = renderDiff([file({ newPath: 'big', diff: big, additions: 600 }), file({ diff: '@@ -1 +1 @@\n-a\n+b\n' })]).value;
    assert.match(out, /<details class="diff-file" id="diff-0">/);
    assert.match(out, /collapsed: 601 lines/);
    assert.match(out, /<details class="diff-file" id="diff-1" open>/);
  });

  test('an overflowing diff says that files are not shown in full', () => {
    const out = renderDiff([file({ additions: 3 })], { overflow: true }).value;
    assert.match(out, /This diff is too large/);
    assert.match(out, /too large to show here/);
  });
});
