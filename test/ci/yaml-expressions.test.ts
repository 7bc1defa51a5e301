import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluateExpression, isExpression, parseExpression } from '../../src/services/ci/yaml/expressions';

/** The truth of `text` with these variables; the test fails when the text does not parse. */
function holds(text: string, vars: Record<string, string> = {}): boolean {
  const e = parseExpression(text);
  assert.ok(e, `${text} should parse`);
  return evaluateExpression(e, new Map(Object.entries(vars)));
}

describe('rules:if variable expressions', () => {
  it('a variable alone is true when it is defined and not empty', () => {
    assert.equal(holds('$CI_COMMIT_TAG', { CI_COMMIT_TAG: 'v1' }), true);
    assert.equal(holds('$CI_COMMIT_TAG', { CI_COMMIT_TAG: '' }), false);
    assert.equal(holds('$CI_COMMIT_TAG'), false);
  });

  it('== and != compare with strings in either quote', () => {
    const vars = { CI_COMMIT_BRANCH: 'master' };
    assert.equal(holds('$CI_COMMIT_BRANCH == "master"', vars), true);
    assert.equal(holds("$CI_COMMIT_BRANCH == 'master'", vars), true);
    assert.equal(holds('$CI_COMMIT_BRANCH == "main"', vars), false);
    assert.equal(holds('$CI_COMMIT_BRANCH != "main"', vars), true);
    assert.equal(holds('"master" == $CI_COMMIT_BRANCH', vars), true);
  });

  it('two variables compare by value', () => {
    assert.equal(holds('$A == $B', { A: 'x', B: 'x' }), true);
    assert.equal(holds('$A == $B', { A: 'x', B: 'y' }), false);
    assert.equal(holds('$A != $B', { A: 'x' }), true);
  });

  it('null equals an undefined variable but not an empty one', () => {
    assert.equal(holds('$NOPE == null'), true);
    assert.equal(holds('$EMPTY == null', { EMPTY: '' }), false);
    assert.equal(holds('$EMPTY == ""', { EMPTY: '' }), true);
    assert.equal(holds('$SET != null', { SET: 'a' }), true);
  });

  it('=~ matches a pattern anywhere, !~ is its negation', () => {
    const vars = { CI_COMMIT_REF_NAME: 'feature/login' };
    assert.equal(holds('$CI_COMMIT_REF_NAME =~ /^feature/', vars), true);
    assert.equal(holds('$CI_COMMIT_REF_NAME =~ /login/', vars), true);
    assert.equal(holds('$CI_COMMIT_REF_NAME =~ /^login/', vars), false);
    assert.equal(holds('$CI_COMMIT_REF_NAME !~ /^release/', vars), true);
    assert.equal(holds('$CI_COMMIT_REF_NAME !~ /feature/', vars), false);
  });

  it('pattern flags and escaped slashes', () => {
    assert.equal(holds('$M =~ /WIP/i', { M: 'a wip change' }), true);
    assert.equal(holds('$M =~ /WIP/', { M: 'a wip change' }), false);
    assert.equal(holds('$R =~ /^feature\\/x$/', { R: 'feature/x' }), true);
    assert.equal(holds('$M =~ /^second$/m', { M: 'first\nsecond' }), true);
    assert.equal(holds('$M =~ /^second$/', { M: 'first\nsecond' }), false);
  });

  it('an undefined variable matches as an empty text', () => {
    assert.equal(holds('$NOPE =~ /^$/'), true);
    assert.equal(holds('$NOPE =~ /a/'), false);
  });

  it('&& binds tighter than ||', () => {
    assert.equal(holds('$A || $B && $C', { A: 'x' }), true);
    assert.equal(holds('($A || $B) && $C', { A: 'x' }), false);
    assert.equal(holds('$A && $B || $C', { C: 'x' }), true);
    assert.equal(holds('$A && ($B || $C)', { C: 'x' }), false);
  });

  it('comparisons bind tighter than && and ||', () => {
    const vars = { SOURCE: 'push', BRANCH: 'master' };
    assert.equal(holds('$SOURCE == "push" && $BRANCH == "master"', vars), true);
    assert.equal(holds('$SOURCE == "api" || $BRANCH == "master"', vars), true);
    assert.equal(holds('$SOURCE == "api" && $BRANCH == "master"', vars), false);
  });

  it('nested parentheses', () => {
    assert.equal(holds('(($A == "1") && ($B == "2" || $C))', { A: '1', C: 'y' }), true);
    assert.equal(holds('((($A)))', { A: '1' }), true);
  });

  it('whitespace is free', () => {
    assert.equal(holds('  $A=="1"&&$B  ', { A: '1', B: 'b' }), true);
  });

  it('strings keep their spaces and other quotes', () => {
    assert.equal(holds(`$M == "it's here"`, { M: "it's here" }), true);
    assert.equal(holds(`$M == 'say "hi"'`, { M: 'say "hi"' }), true);
  });

  it('a literal alone is its own truth', () => {
    assert.equal(holds('"text"'), true);
    assert.equal(holds('""'), false);
    assert.equal(holds('null'), false);
  });

  for (const bad of [
    '',
    '   ',
    '$',
    '$1VAR',
    'VAR',
    '$A ==',
    '== $A',
    '$A = "x"',
    '$A == "x',
    '$A =~ "x"',
    '$A =~ /[/',
    '$A =~ //',
    '($A',
    '$A)',
    '()',
    '$A && || $B',
    '$A $B',
    '$A == "x" == "y"',
    '$A == /x/ extra',
    'true',
  ]) {
    it(`refuses ${JSON.stringify(bad)}`, () => {
      assert.equal(isExpression(bad), false);
    });
  }

  it('refuses what is not a string', () => {
    assert.equal(isExpression(1), false);
    assert.equal(isExpression(null), false);
  });

  it('refuses more than 100 tokens', () => {
    assert.equal(isExpression(Array(50).fill('$A').join(' || ')), true);
    assert.equal(isExpression(Array(51).fill('$A').join(' || ')), false);
  });
});
