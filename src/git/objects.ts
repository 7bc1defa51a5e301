/** Parsing of raw commit and tag objects, and the GitLab renderings of their fields. */

export interface Signature {
  name: string;
  email: string;
  /** ISO 8601 with milliseconds in the signature's own offset: `2012-09-20T09:06:12.000+03:00`. */
  date: string;
  /** Seconds since the epoch. */
  time: number;
}

export interface Commit {
  id: string;
  /** The first 8 characters of the id, as GitLab shows them. */
  shortId: string;
  /** GitLab's title rule: the first line, or 80 characters and `…` when that line exceeds 100. */
  title: string;
  /** The whole message as stored, trailing newline included. */
  message: string;
  treeId: string;
  parentIds: string[];
  author: Signature;
  committer: Signature;
}

export interface Tag {
  id: string;
  targetId: string;
  targetType: string;
  name: string;
  /** The annotation without its final newline (GitLab chomps it). */
  message: string;
  tagger: Signature | undefined;
}

export function parseCommit(id: string, raw: Buffer): Commit {
  const { headers, message } = splitObject(raw);
  const first = (key: string) => headers.find(([name]) => name === key)?.[1];
  return {
    id,
    shortId: id.slice(0, 8),
    title: commitTitle(message),
    message,
    treeId: first('tree') ?? '',
    parentIds: headers.filter(([name]) => name === 'parent').map(([, value]) => value),
    author: parseSignature(first('author') ?? ''),
    committer: parseSignature(first('committer') ?? ''),
  };
}

export function parseTag(id: string, raw: Buffer): Tag {
  const { headers, message } = splitObject(raw);
  const first = (key: string) => headers.find(([name]) => name === key)?.[1];
  const tagger = first('tagger');
  return {
    id,
    targetId: first('object') ?? '',
    targetType: first('type') ?? '',
    name: first('tag') ?? '',
    message: message.endsWith('\r\n') ? message.slice(0, -2) : message.endsWith('\n') ? message.slice(0, -1) : message,
    tagger: tagger === undefined ? undefined : parseSignature(tagger),
  };
}

/** GitLab's `Commit#title`. */
export function commitTitle(message: string): string {
  if (message.trim() === '') return '--no commit message';
  const end = message.indexOf('\n');
  const firstLine = end === -1 ? message : message.slice(0, end);
  const characters = Array.from(firstLine);
  return characters.length > 100 ? `${characters.slice(0, 80).join('')}…` : firstLine;
}

/** `Name <email> 1348124772 +0300` → name, email and the time rendered in its own offset. */
export function parseSignature(value: string): Signature {
  const open = value.lastIndexOf('<');
  const close = value.lastIndexOf('>');
  if (open === -1 || close < open) return { name: value.trim(), email: '', date: gitTime(0, '+0000'), time: 0 };
  const [seconds, zone] = value
    .slice(close + 1)
    .trim()
    .split(' ');
  const time = Number.parseInt(seconds ?? '', 10);
  return {
    name: value.slice(0, open).trim(),
    email: value.slice(open + 1, close),
    date: gitTime(Number.isFinite(time) ? time : 0, zone ?? '+0000'),
    time: Number.isFinite(time) ? time : 0,
  };
}

/** Seconds plus a git zone (`+0300`) → `2012-09-20T09:06:12.000+03:00`; a zero zone is `+00:00`, as Ruby renders it. */
export function gitTime(seconds: number, zone: string): string {
  const match = /^([+-])(\d{2})(\d{2})$/.exec(zone);
  const sign = match?.[1] === '-' ? -1 : 1;
  const hours = match?.[2] ?? '00';
  const minutes = match?.[3] ?? '00';
  const offsetSeconds = sign * (Number(hours) * 3600 + Number(minutes) * 60);
  const shifted = new Date((seconds + offsetSeconds) * 1000);
  if (Number.isNaN(shifted.getTime())) return gitTime(0, zone);
  return `${shifted.toISOString().slice(0, -1)}${sign < 0 ? '-' : '+'}${hours}:${minutes}`;
}

/** Header lines (continuation lines folded in) and the message after the first blank line. */
function splitObject(raw: Buffer): { headers: Array<[string, string]>; message: string } {
  const text = decode(raw);
  const split = text.indexOf('\n\n');
  const head = split === -1 ? text : text.slice(0, split);
  const message = split === -1 ? '' : text.slice(split + 2);
  const headers: Array<[string, string]> = [];
  for (const line of head.split('\n')) {
    if (line.startsWith(' ') && headers.length > 0) {
      headers[headers.length - 1][1] += `\n${line.slice(1)}`;
      continue;
    }
    const space = line.indexOf(' ');
    if (space > 0) headers.push([line.slice(0, space), line.slice(space + 1)]);
  }
  return { headers, message };
}

/** Objects are UTF-8 unless an `encoding` header says otherwise (GitLab re-encodes those to UTF-8). */
function decode(raw: Buffer): string {
  const end = raw.indexOf('\n\n');
  const head = raw.subarray(0, end === -1 ? raw.length : end).toString('latin1');
  const declared = /(?:^|\n)encoding ([^\n]+)/.exec(head)?.[1]?.trim();
  if (declared && !/^utf-?8$/i.test(declared)) {
    try {
      return new TextDecoder(declared).decode(raw);
    } catch {
      // An encoding Node does not know: read it as UTF-8 like everything else.
    }
  }
  return raw.toString('utf8');
}
