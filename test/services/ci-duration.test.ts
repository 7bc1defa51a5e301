import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isDuration, parseDuration } from '../../src/services/ci/yaml/checks';

describe('expire_in read as ChronicDuration read it', () => {
  const DAY = 86400;
  const cases: Array<[string, number]> = [
    ['7d', 7 * DAY],
    ['7 days', 7 * DAY],
    ['1 week', 7 * DAY],
    ['3 mins 4 sec', 184],
    ['2 hrs 20 min', 8400],
    ['2h20min', 8400],
    ['6 mos 1 day', 181 * DAY],
    ['47 yrs 6 mos and 4d', 47 * 365.25 * DAY + 180 * DAY + 4 * DAY],
    ['3 weeks and 2 days', 23 * DAY],
    ['10', 10],
    ['1:30:00', 5400],
    ['1:30', 90],
  ];
  for (const [text, seconds] of cases) {
    test(`"${text}" is ${seconds} seconds`, () => {
      assert.equal(parseDuration(text), seconds);
      assert.equal(isDuration(text), true);
    });
  }

  test('words that are not units, units without numbers and empty text are refused', () => {
    for (const text of ['', 'soon', 'days', '3 fortnights', '1 week week', 42 as unknown as string]) {
      assert.equal(parseDuration(text), undefined, String(text));
      assert.equal(isDuration(text), false);
    }
  });
});
