import assert from 'node:assert/strict';
import { test } from 'node:test';
import { randomToken } from '../../src/lib/secrets';

// A token that starts with a dash reads as an option on a command line: CI once failed
// on `forge runner --registration-token -…` ("argument is ambiguous").
test('a random token never starts with - or _, and uses only URL-safe characters', () => {
  for (let draw = 0; draw < 2000; draw++) {
    const token = randomToken(20);
    assert.match(token, /^[A-Za-z0-9][A-Za-z0-9_-]{19}$/);
  }
});
