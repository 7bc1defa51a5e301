import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { extractCommands } from '../../src/services/slash-commands/extract';
import { parseDueDate } from '../../src/services/slash-commands/due-date';
import { findLabelIds } from '../../src/services/slash-commands/interpret';

/* The slash command parser, by the rules of GitLab 8.12's `Gitlab::SlashCommands::Extractor` and its spec. */

describe('extractCommands', () => {
  test('a command alone on its line, at the start, in the middle and at the end', () => {
    assert.deepEqual(extractCommands('/reopen\nworld'), { text: 'world', commands: [{ name: 'reopen', arg: '' }] });
    assert.deepEqual(extractCommands('hello\n/reopen\nworld'), { text: 'hello\nworld', commands: [{ name: 'reopen', arg: '' }] });
    assert.deepEqual(extractCommands('hello\n/close'), { text: 'hello', commands: [{ name: 'close', arg: '' }] });
  });

  test('arguments, trimmed; several commands in order', () => {
    const { text, commands } = extractCommands('hello\n/assign @joe\nworld\n/label ~foo ~"bar baz" label  \n/close');
    assert.equal(text, 'hello\nworld');
    assert.deepEqual(commands, [
      { name: 'assign', arg: '@joe' },
      { name: 'label', arg: '~foo ~"bar baz" label' },
      { name: 'close', arg: '' },
    ]);
  });

  test('not in the middle of a line, not glued to its argument, not in another case, not unknown', () => {
    for (const body of ['hello\nworld /close', 'hello\n/assign@joe\nworld', '/Close', '/CLOSE', '/closed', '/cc @joe', ' /close']) {
      assert.deepEqual(extractCommands(body), { text: body, commands: [] }, body);
    }
  });

  test('an argument holding a slash makes no command (8.12)', () => {
    assert.deepEqual(extractCommands('/title a/b').commands, []);
  });

  test('nothing inside a fenced code block, an HTML block or a >>> quote; carriage returns go', () => {
    for (const body of [
      'Hello\r\n```\r\nThis is some text\r\n/close\r\n/assign @user\r\n```\r\n\r\nWorld',
      'Hello\r\n>>>\r\nThis is some text\r\n/close\r\n/assign @user\r\n>>>\r\n\r\nWorld',
      'Hello\r\n<div>\r\nThis is some text\r\n/close\r\n/assign @user\r\n</div>\r\n\r\nWorld',
    ]) {
      assert.deepEqual(extractCommands(body).commands, [], body);
    }
    const mixed = extractCommands('```ruby\n/close\n```\r\n/reopen\r\nafter');
    assert.deepEqual(mixed.commands, [{ name: 'reopen', arg: '' }]);
    assert.equal(mixed.text, '```ruby\n/close\n```\nafter');
  });

  test('a text without commands comes back untouched', () => {
    assert.deepEqual(extractCommands('  Fixes #123\r\n'), { text: '  Fixes #123\r\n', commands: [] });
  });

  test('a text of commands only is empty', () => {
    assert.equal(extractCommands('/close\n/todo\n').text, '');
  });
});

describe('parseDueDate', () => {
  const friday = new Date('2026-11-27T12:00:00Z');
  test('the forms 8.12 documented and the usual ones', () => {
    assert.equal(parseDueDate('2026-12-31', friday), '2026-12-31');
    assert.equal(parseDueDate('today', friday), '2026-11-27');
    assert.equal(parseDueDate('tomorrow', friday), '2026-11-28');
    assert.equal(parseDueDate('in 2 days', friday), '2026-11-29');
    assert.equal(parseDueDate('in 1 week', friday), '2026-12-04');
    assert.equal(parseDueDate('this Friday', friday), '2026-12-04');
    assert.equal(parseDueDate('Monday', friday), '2026-11-30');
    assert.equal(parseDueDate('next monday', friday), '2026-12-07');
    assert.equal(parseDueDate('December 31st', friday), '2026-12-31');
    assert.equal(parseDueDate('January 5th', friday), '2027-01-05');
    assert.equal(parseDueDate('31 december 2027', friday), '2027-12-31');
  });
  test('what names no day is nothing', () => {
    for (const arg of ['', 'soon', '2026-02-30', '2026-13-01', 'February 30', 'in x days'])
      assert.equal(parseDueDate(arg, friday), undefined, arg);
  });
});

describe('findLabelIds', () => {
  const labels = [
    { id: 1, title: 'a' },
    { id: 2, title: 'b c' },
    { id: 3, title: 'bug' },
  ];
  test('~title, ~"title with spaces", ~id and bare titles; unknown ones are left out', () => {
    assert.deepEqual(findLabelIds(labels, '~a ~"b c"'), [1, 2]);
    assert.deepEqual(findLabelIds(labels, '~3 bug ~nope nope'), [3]);
  });
});
