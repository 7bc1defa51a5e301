import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { git, timeSpawn } from './spawn';

export interface FixtureShape {
  commits: number;
  files: number;
}

export interface Fixture {
  /** A commit halfway down the history, for `git show`. */
  middleSha: string;
  /** Tags `compareFrom`..`compareTo`, `compareDistance` commits apart. */
  compareFrom: string;
  compareTo: string;
  compareDistance: number;
  deepFolder: string;
  blobSha: string;
  packBytes: number;
  seconds: { generate: number; gc: number };
}

const WORDS = [
  'alpha',
  'bravo',
  'charlie',
  'delta',
  'echo',
  'foxtrot',
  'golf',
  'hotel',
  'india',
  'juliet',
  'kilo',
  'lima',
  'mike',
  'november',
  'oscar',
  'papa',
  'quebec',
  'romeo',
  'sierra',
  'tango',
];
const TOP = ['app', 'lib', 'docs', 'test', 'tools', 'config', 'scripts', 'assets', 'spec', 'vendor'];
const EXTENSIONS = ['ts', 'md', 'json', 'txt', 'js'];
const DEEP_FOLDER = 'lib/core/internal/engine/render/passes/shader/glsl';
const ROOT_FILES = ['README.md', 'LICENSE', '.gitignore'];
const AUTHORS = Array.from({ length: 60 }, (_, i) => ({ name: `Developer ${String(i).padStart(2, '0')}`, email: `dev${i}@example.com` }));
const START = Date.UTC(2014, 0, 1) / 1000;
const COMPARE_DISTANCE = 1000;

/** mulberry32: small, fast and the same everywhere. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function layout(files: number): string[] {
  const deepCount = Math.min(40, Math.floor(files / 50));
  const paths = [...ROOT_FILES];
  for (let i = 0; i < deepCount; i++) paths.push(`${DEEP_FOLDER}/pass${String(i).padStart(2, '0')}.glsl`);
  for (let i = 0; paths.length < files; i++) {
    const folder = `${TOP[i % TOP.length]}/m${String(Math.floor(i / TOP.length) % 10).padStart(2, '0')}`;
    paths.push(`${folder}/file${String(i).padStart(4, '0')}.${EXTENSIONS[i % EXTENSIONS.length]}`);
  }
  return paths;
}

/**
 * The fast-import stream of a linear history: one commit adding every file, then commits changing
 * one to four files each (lines replaced, inserted or removed) by sixty authors of unequal activity,
 * one hour apart. Tags mark the two ends of the compared range.
 */
function* stream(shape: FixtureShape): Generator<string> {
  const next = random(20161012);
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
  const line = () => `${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)} ${Math.floor(next() * 100000)}`;
  const paths = layout(shape.files);
  const contents = paths.map(() => Array.from({ length: 20 + Math.floor(next() * 40) }, line));
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const file = (i: number) => `M 100644 inline ${paths[i]}\n${data(`${contents[i].join('\n')}\n`)}`;

  for (let n = 1; n <= shape.commits; n++) {
    // Activity follows roughly a power law: a few authors write most commits.
    const author = AUTHORS[Math.floor(AUTHORS.length * next() ** 2)];
    const stamp = `${author.name} <${author.email}> ${START + n * 3600} +0000`;
    let changes = '';
    let message: string;
    if (n === 1) {
      message = 'Initial import\n';
      changes = paths.map((_, i) => file(i)).join('');
    } else {
      const touched = new Set<number>();
      const count = 1 + Math.floor(next() * 4);
      while (touched.size < count) touched.add(Math.floor(next() * paths.length));
      for (const i of touched) {
        const lines = contents[i];
        const at = Math.floor(next() * lines.length);
        const kind = next();
        if (kind < 0.6) lines[at] = line();
        else if (kind < 0.85 || lines.length < 10) lines.splice(at, 0, line(), line());
        else lines.splice(at, 1);
        changes += file(i);
      }
      message = `Change ${n}: ${pick(WORDS)} ${pick(WORDS)}\n\nTouches ${[...touched].map((i) => paths[i]).join(', ')}.\n`;
    }
    yield `commit refs/heads/master\nmark :${n}\nauthor ${stamp}\ncommitter ${stamp}\n${data(message)}${changes}\n`;
  }
  yield `reset refs/tags/compare-from\nfrom :${shape.commits - COMPARE_DISTANCE}\n\n`;
  yield `reset refs/tags/compare-to\nfrom :${shape.commits}\n\n`;
  yield 'done\n';
}

/** Batches the generator's small strings into large writes. */
async function* batched(source: Iterable<string>): AsyncGenerator<Buffer> {
  let pending: string[] = [];
  let size = 0;
  for (const piece of source) {
    pending.push(piece);
    size += piece.length;
    if (size >= 1 << 20) {
      yield Buffer.from(pending.join(''));
      pending = [];
      size = 0;
    }
  }
  if (pending.length) yield Buffer.from(pending.join(''));
}

/** Builds the bare repository at `repoPath` (which must not exist): deterministic, same objects every run. */
export async function buildFixture(repoPath: string, shape: FixtureShape): Promise<Fixture> {
  if (shape.commits <= COMPARE_DISTANCE) throw new Error(`need more than ${COMPARE_DISTANCE} commits`);
  const started = performance.now();
  await timeSpawn('git', ['init', '--bare', '--quiet', '--initial-branch=master', repoPath]);
  const marks = path.join(path.dirname(repoPath), `${path.basename(repoPath)}.marks`);
  await timeSpawn('git', ['fast-import', '--quiet', '--done', `--export-marks=${marks}`], {
    cwd: repoPath,
    input: Readable.from(batched(stream(shape))),
  });
  const generated = performance.now();
  // A served repository gets `gc --auto` after pushes: packed, with a commit-graph.
  await timeSpawn('git', ['gc', '--quiet'], { cwd: repoPath });
  const collected = performance.now();

  const markLines = new Map(
    fs
      .readFileSync(marks, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(' ') as [string, string]),
  );
  fs.rmSync(marks);
  const packDir = path.join(repoPath, 'objects', 'pack');
  const packBytes = fs
    .readdirSync(packDir)
    .filter((f) => f.endsWith('.pack'))
    .reduce((sum, f) => sum + fs.statSync(path.join(packDir, f)).size, 0);
  const blobPath = layout(shape.files).find((p) => p.startsWith('app/'))!;
  return {
    middleSha: markLines.get(`:${Math.floor(shape.commits / 2)}`)!,
    compareFrom: 'compare-from',
    compareTo: 'compare-to',
    compareDistance: COMPARE_DISTANCE,
    deepFolder: DEEP_FOLDER,
    blobSha: await git(repoPath, 'rev-parse', `HEAD:${blobPath}`),
    packBytes,
    seconds: { generate: (generated - started) / 1000, gc: (collected - generated) / 1000 },
  };
}
