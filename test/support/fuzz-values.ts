/**
 * Hostile inputs for the fuzz pass (`test/http/fuzz/pass.ts`). Every value carries a short label
 * so that a failing request can be read and replayed; every choice goes through a seeded `Rng`
 * so that a run repeats exactly.
 */

export interface Hostile<T> {
  label: string;
  value: T;
}

/** mulberry32: small, fast and good enough to pick test inputs. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(below: number): number {
    return Math.floor(this.next() * below);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  /** `count` distinct items, in a seeded order (all of them when there are fewer). */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    for (let i = pool.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [pool[i], pool[j]] = [pool[j], pool[i]];
    }
    return pool.slice(0, count);
  }
}

const KB = 1024;
const MB = 1024 * KB;
const strings = new Map<number, string>();
/** A string of `bytes` ASCII characters, built once per size. */
export function longString(bytes: number): string {
  let text = strings.get(bytes);
  if (text === undefined) {
    text = 'x'.repeat(bytes);
    strings.set(bytes, text);
  }
  return text;
}
export function sizeLabel(bytes: number): string {
  return bytes >= MB ? `${bytes / MB} MB` : `${bytes / KB} KB`;
}

/** Values that reach git as arguments or revisions: option injection, odd revision syntax. */
const GIT_ISH: Hostile<string>[] = [
  { label: '"--output=/tmp/x"', value: '--output=/tmp/x' },
  { label: '"-h"', value: '-h' },
  { label: '"HEAD~99999"', value: 'HEAD~99999' },
  { label: '"master..master"', value: 'master..master' },
  { label: '"@{-1}"', value: '@{-1}' },
  { label: '"refs/heads/../x"', value: 'refs/heads/../x' },
  { label: '":/"', value: ':/' },
];

/** Strings every string field should survive. */
const ODD_STRINGS: Hostile<string>[] = [
  { label: '""', value: '' },
  { label: '"   "', value: '   ' },
  { label: 'NUL byte', value: 'a\u0000b' },
  { label: 'newlines', value: 'a\nb\r\nc' },
  { label: 'unicode', value: 'ünï 𝄞 ☃ \u202e' },
  { label: 'lone surrogate', value: 'a\ud800b' },
  { label: '"../../etc/passwd"', value: '../../etc/passwd' },
  { label: '"/"', value: '/' },
  { label: '"9223372036854775808"', value: '9223372036854775808' },
  { label: '"1e308"', value: '1e308' },
  { label: '"-1"', value: '-1' },
  { label: '"true"', value: 'true' },
  ...GIT_ISH,
];

/** Values of the wrong JSON type, or at the edge of a number's range. */
const WRONG_TYPES: Hostile<unknown>[] = [
  { label: 'null', value: null },
  { label: 'true', value: true },
  { label: 'false', value: false },
  { label: '0', value: 0 },
  { label: '-1', value: -1 },
  { label: '-0', value: -0 },
  // biome-ignore lint/correctness/noPrecisionLoss: a number past 2^63 on purpose (it cannot be held exactly)
  { label: '9223372036854775808', value: 9223372036854775808 },
  { label: '1e308', value: 1e308 },
  { label: '1.5', value: 1.5 },
  { label: '"abc"', value: 'abc' },
  { label: '[]', value: [] },
  { label: '[1,"a"]', value: [1, 'a'] },
  { label: '{}', value: {} },
  { label: '{"a":{"b":1}}', value: { a: { b: 1 } } },
];

/** Small hostile values for one JSON body field (sizes apart, see `longString`). */
export function bodyFieldValues(): Hostile<unknown>[] {
  return [...WRONG_TYPES, ...ODD_STRINGS];
}

/** Hostile query-string values as `key=value` pairs, already encoded, for parameter `key`. */
export function queryValues(key: string): Hostile<string>[] {
  const k = encodeURIComponent(key);
  const one = (label: string, value: string) => ({ label: `${key}=${label}`, value: `${k}=${value}` });
  return [
    one('""', ''),
    one('abc', 'abc'),
    one('-1', '-1'),
    one('0', '0'),
    one('-0', '-0'),
    one('9223372036854775808', '9223372036854775808'),
    one('1e308', '1e308'),
    one('NaN', 'NaN'),
    one('%00', '%00'),
    one('unicode', encodeURIComponent('ünï𝄞')),
    one('"--output=/tmp/x"', '--output%3D%2Ftmp%2Fx'),
    one('"../../etc/passwd"', '..%2F..%2Fetc%2Fpasswd'),
    one('bad %-escape', '%E0%A4%A'),
    one('10 KB', longString(10 * KB)),
    { label: `${key} twice`, value: `${k}=1&${k}=2` },
    { label: `${key}[]=1&${key}[]=2`, value: `${k}%5B%5D=1&${k}%5B%5D=2` },
    { label: `${key}[a][b]=`, value: `${k}%5Ba%5D%5Bb%5D=` },
    { label: `${key} without =`, value: k },
  ];
}

/** Extremes for `page` and `per_page`. */
export const PAGE_VALUES = ['0', '-1', '1e308', '9223372036854775808', 'abc'];

/** Hostile path segments, already encoded. */
export function pathSegments(): Hostile<string>[] {
  return [
    { label: '0', value: '0' },
    { label: '-1', value: '-1' },
    { label: '99999999999999999999', value: '99999999999999999999' },
    { label: '9223372036854775808', value: '9223372036854775808' },
    { label: '1e308', value: '1e308' },
    { label: '1.5', value: '1.5' },
    { label: '%00', value: '%00' },
    { label: '..%2F..%2Fetc%2Fpasswd', value: '..%2F..%2Fetc%2Fpasswd' },
    { label: '%2F', value: '%2F' },
    { label: 'a%2Fb%2Fc', value: 'a%2Fb%2Fc' },
    { label: 'bad %-escape', value: '%E0%A4%A' },
    { label: 'unicode', value: encodeURIComponent('ünï𝄞') },
    { label: '--output=x', value: '--output%3Dx' },
    { label: 'HEAD~99999', value: 'HEAD~99999' },
    { label: '10 KB', value: longString(10 * KB) },
  ];
}

export interface RawBody {
  label: string;
  contentType?: string;
  body: string | Buffer;
  headers?: Record<string, string>;
}

/** Bodies that lie about their content type or break its grammar; `fields` is a plausible body. */
export function rawBodies(fields: Record<string, unknown>): RawBody[] {
  const json = JSON.stringify(fields);
  const form = new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])).toString();
  const boundary = 'fuzzboundary';
  const part = (name: string, value: string) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const parts = Object.entries(fields)
    .map(([k, v]) => part(k, String(v)))
    .join('');
  const multipart = `multipart/form-data; boundary=${boundary}`;
  return [
    { label: 'JSON labelled text/plain', contentType: 'text/plain', body: json },
    { label: 'invalid JSON', contentType: 'application/json', body: '{"a":' },
    { label: 'JSON array', contentType: 'application/json', body: '[1,{"a":2}]' },
    { label: 'JSON scalar 42', contentType: 'application/json', body: '42' },
    { label: 'JSON null', contentType: 'application/json', body: 'null' },
    { label: 'JSON nested 10k deep', contentType: 'application/json', body: `{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}` },
    {
      label: 'JSON with __proto__',
      contentType: 'application/json',
      body: json.replace(/^\{/, '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}},'),
    },
    { label: 'JSON labelled utf-16', contentType: 'application/json; charset=utf-16', body: json },
    { label: 'JSON labelled gzip', contentType: 'application/json', body: json, headers: { 'content-encoding': 'gzip' } },
    {
      label: 'urlencoded, repeated keys and a[b][c]=',
      contentType: 'application/x-www-form-urlencoded',
      body: `${form}&${form}&a[b][c]=&[]=&=x&%=`,
    },
    { label: 'application/xml', contentType: 'application/xml', body: '<?xml version="1.0"?><a><b>1</b></a>' },
    { label: 'no content type', body: json },
    { label: 'multipart without boundary', contentType: 'multipart/form-data', body: `${parts}--${boundary}--\r\n` },
    { label: 'multipart truncated', contentType: multipart, body: `${parts}--${boundary}--\r\n`.slice(0, Math.max(10, parts.length / 2)) },
    {
      label: 'multipart unterminated part',
      contentType: multipart,
      body: `${parts}--${boundary}\r\ncontent-disposition: form-data; name="x"\r\n\r\nabc`,
    },
    { label: 'multipart wrong boundary', contentType: `${multipart}x`, body: `${parts}--${boundary}--\r\n` },
    {
      label: 'multipart with a file part',
      contentType: multipart,
      body: `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="a.txt"\r\ncontent-type: text/plain\r\n\r\nabc\r\n--${boundary}--\r\n`,
    },
  ];
}
