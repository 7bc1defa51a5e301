import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mentionedNames } from '../../src/services/todos/mentions';

/* The @-mentions of a Markdown text, where GitLab 8.12's UserReferenceFilter found them. */

describe('mentionedNames', () => {
  test('finds names in prose, once each, lower-cased, in order', () => {
    assert.deepEqual(mentionedNames('@Alice and @bob, then @alice again (@carol_1) @d-e'), ['alice', 'bob', 'carol_1', 'd-e']);
  });

  test('punctuation after a name ends it; a name never ends with a dot', () => {
    assert.deepEqual(mentionedNames('Thanks @bob. Ask @carol! Or @dave? @erin: @frank; @gina.'), [
      'bob',
      'carol',
      'dave',
      'erin',
      'frank',
      'gina',
    ]);
    assert.deepEqual(mentionedNames('@john.doe knows'), ['john.doe']);
  });

  test('not inside code spans, of any length', () => {
    assert.deepEqual(mentionedNames('run `@x` and ``a ` @y`` but @z'), ['z']);
    assert.deepEqual(mentionedNames('an unmatched ` tick @w'), ['w']);
  });

  test('not inside fenced code blocks, closed or not', () => {
    assert.deepEqual(mentionedNames('before @a\n```ruby\n@b\n```\nafter @c\n~~~\n@d'), ['a', 'c']);
    assert.deepEqual(mentionedNames('````\n```\n@e\n````\n@f'), ['f']);
  });

  test('not inside indented code blocks, though an indented line may continue a paragraph', () => {
    assert.deepEqual(mentionedNames('text\n\n    @a in code\n\n@b'), ['b']);
    assert.deepEqual(mentionedNames('paragraph\n    @c continues it'), ['c']);
    assert.deepEqual(mentionedNames('\t@tabbed'), []);
  });

  test('not in e-mail addresses, URLs or links', () => {
    assert.deepEqual(mentionedNames('mail a@b.com or john.doe@example.org'), []);
    assert.deepEqual(mentionedNames('see https://example.com/@bob and <https://x.org/@carol> and <me@host.org>'), []);
    assert.deepEqual(mentionedNames('[@dave](https://example.com) <code>@erin</code> but @frank'), ['frank']);
  });

  test('@all is kept for the caller to resolve', () => {
    assert.deepEqual(mentionedNames('cc @all'), ['all']);
  });

  test('a lone @ or one followed by nothing a name may hold is no mention', () => {
    assert.deepEqual(mentionedNames('@ @- @. x@ @@bob'), []);
  });

  test('a single character is a name', () => {
    assert.deepEqual(mentionedNames('@a'), ['a']);
  });
});
