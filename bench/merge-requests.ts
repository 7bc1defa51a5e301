import fs from 'node:fs';
import path from 'node:path';
import type { Benchmark, BenchOptions, TargetCheck } from './support/types';
import { databaseKind, startBenchApp, type BenchApp } from './support/app';
import { apiCall, timedRequest } from './support/http';
import { git, timeSpawn } from './support/spawn';
import { median, ms, ratio, table } from './support/stats';
import { repoPathOf } from '../src/services/repository/repositories';
// Merge requests are written as the tests write them (the creation route is another branch's work).

const TARGET = 1.5;

/** Files of the base tree; the big merge request changes `BIG_FILES` of them. */
const BASE_FILES = 2_000;
const BIG_FILES = 1_000;

/**
 * A working repository: master with `BASE_FILES` files, then per round a branch `topic-<n>` changing
 * a few files of its own, and master moving on in between (so every merge is a real three-way
 * merge), and `big`, which changes `BIG_FILES` files.
 */
async function buildWork(dir: string, rounds: number): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  await git(dir, 'init', '-q', '-b', 'master');
  await git(dir, 'config', 'user.name', 'Bench');
  await git(dir, 'config', 'user.email', 'bench@example.com');
  for (let file = 0; file < BASE_FILES; file++) {
    fs.mkdirSync(path.join(dir, `dir${file % 50}`), { recursive: true });
    fs.writeFileSync(path.join(dir, `dir${file % 50}`, `file${file}.txt`), `line one of ${file}\nline two\nline three\n`);
  }
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '-q', '-m', 'base');
  for (let round = 0; round < rounds; round++) {
    await git(dir, 'checkout', '-q', '-b', `topic-${round}`, 'master');
    for (let k = 0; k < 5; k++) {
      const file = round * 5 + k;
      fs.writeFileSync(path.join(dir, `dir${file % 50}`, `file${file}.txt`), `changed in topic ${round}\n`);
    }
    await git(dir, 'commit', '-q', '-am', `topic ${round}`);
    await git(dir, 'checkout', '-q', 'master');
    fs.writeFileSync(path.join(dir, `master-${round}.txt`), `master ${round}\n`);
    await git(dir, 'add', '-A');
    await git(dir, 'commit', '-q', '-m', `master ${round}`);
  }
  await git(dir, 'checkout', '-q', '-b', 'big', 'master');
  for (let file = BASE_FILES - BIG_FILES; file < BASE_FILES; file++)
    fs.appendFileSync(path.join(dir, `dir${file % 50}`, `file${file}.txt`), 'added by big\n');
  await git(dir, 'commit', '-q', '-am', 'big change');
  // Another as big, over other files: the first look at a new merge request of that size.
  await git(dir, 'checkout', '-q', '-b', 'big2', 'master');
  for (let file = 0; file < BIG_FILES; file++) fs.appendFileSync(path.join(dir, `dir${file % 50}`, `file${file}.txt`), 'added by big2\n');
  await git(dir, 'commit', '-q', '-am', 'another big change');
  await git(dir, 'checkout', '-q', 'master');
}

/** Waits for the background work a merge set off (push processing, refreshes, checks), so it never runs into the next timing. */
async function settle(app: BenchApp): Promise<void> {
  for (;;) {
    const left = await app.database.db.selectFrom('jobs').select('id').where('locked_by', 'is distinct from', 'failed').limit(1).execute();
    if (left.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function run({ quick }: BenchOptions): Promise<TargetCheck[]> {
  const rounds = quick ? 5 : 15;
  const app = await startBenchApp();
  try {
    const project = await apiCall(app.url, app.rootToken, 'POST', '/projects', { name: 'merging', visibility_level: 20 });
    const repoPath = repoPathOf(app.ctx, project.id);
    const work = path.join(app.config.dataDir, 'work');
    await buildWork(work, rounds + 1);
    await git(work, 'push', '-q', repoPath, '--all');
    await app.database.db.updateTable('projects').set({ default_branch: 'master' }).where('id', '=', project.id).execute();
    // The same history, cloned with a working tree: where `git merge` runs.
    const scratch = path.join(app.config.dataDir, 'scratch');
    await git(app.config.dataDir, 'clone', '-q', repoPath, scratch);
    await git(scratch, 'config', 'user.name', 'Bench');
    await git(scratch, 'config', 'user.email', 'bench@example.com');
    const headers = { 'private-token': app.rootToken, 'content-type': 'application/json' };
    console.log(
      `${databaseKind()}; ${BASE_FILES} files, ${rounds} merges of a 5-file branch (after 1 untimed), master moved on before each; changes of a ${BIG_FILES}-file merge request`,
    );

    // Merges: the same branches, in the same order, through the API and in the scratch clone.
    const apiTimes: number[] = [];
    const gitTimes: number[] = [];
    for (let round = 0; round <= rounds; round++) {
      const mr = await apiCall(app.url, app.rootToken, 'POST', `/projects/${project.id}/merge_requests`, {
        source_branch: `topic-${round}`,
        target_branch: 'master',
        title: `Merge topic-${round}`,
      });
      await settle(app);
      const merged = await timedRequest(`${app.url}/api/v3/projects/${project.id}/merge_requests/${mr.id}/merge`, {
        method: 'PUT',
        headers,
        body: '{}',
      });
      if (merged.status !== 200) throw new Error(`merge answered ${merged.status}: ${merged.body.toString().slice(0, 200)}`);
      const local = await timeSpawn('git', ['merge', '-q', '--no-ff', '--no-edit', `origin/topic-${round}`], { cwd: scratch });
      await settle(app);
      if (round === 0) continue;
      apiTimes.push(merged.ms);
      gitTimes.push(local.ms);
    }

    // Changes of the big merge request beside `git diff` of the same range.
    const big = await apiCall(app.url, app.rootToken, 'POST', `/projects/${project.id}/merge_requests`, {
      source_branch: 'big',
      target_branch: 'master',
      title: 'Merge big',
    });
    await settle(app);
    const changesUrl = `${app.url}/api/v3/projects/${project.id}/merge_requests/${big.id}/changes`;
    const first = await timedRequest(changesUrl, { headers });
    if (first.status !== 200) throw new Error(`changes answered ${first.status}`);
    const changed = JSON.parse(first.body.toString()).changes.length;
    const big2 = await apiCall(app.url, app.rootToken, 'POST', `/projects/${project.id}/merge_requests`, {
      source_branch: 'big2',
      target_branch: 'master',
      title: 'Merge big2',
    });
    await settle(app);
    // The first look at a new merge request's changes, after its background work (which reads the
    // version's diff, as 8.12 stored it when the version was made).
    const firstLook = await timedRequest(`${app.url}/api/v3/projects/${project.id}/merge_requests/${big2.id}/changes`, { headers });
    if (firstLook.status !== 200) throw new Error(`changes answered ${firstLook.status}`);
    // Cold: nothing kept (another process than the one that ran the background work, or a restart).
    app.services.mergeRequestContents.forget();
    const cold = await timedRequest(changesUrl, { headers });
    if (cold.status !== 200) throw new Error(`changes answered ${cold.status}`);
    const diffArgs = ['diff', 'master...big'];
    await timeSpawn('git', diffArgs, { cwd: repoPath });
    const changesTimes: number[] = [];
    const diffTimes: number[] = [];
    for (let round = 0; round < (quick ? 5 : 11); round++) {
      changesTimes.push((await timedRequest(changesUrl, { headers })).ms);
      diffTimes.push((await timeSpawn('git', diffArgs, { cwd: repoPath })).ms);
    }

    const cases = [
      {
        name: 'PUT …/merge',
        beside: 'git merge --no-ff (working clone)',
        api: median(apiTimes),
        git: median(gitTimes),
        runs: apiTimes.length,
      },
      {
        name: `GET …/changes (${changed} files), first look`,
        beside: 'git diff master...big (bare)',
        api: firstLook.ms,
        git: median(diffTimes),
        runs: 1,
      },
      {
        name: `GET …/changes (${changed} files), again`,
        beside: 'git diff master...big (bare)',
        api: median(changesTimes),
        git: median(diffTimes),
        runs: changesTimes.length,
      },
    ];
    const rows = cases.map((c) => [c.name, ms(c.api), ms(c.git), ratio(c.api / c.git), String(c.runs), c.beside]);
    console.log(table(['case', 'API', 'git', 'API/git', 'runs', 'git command'], rows));
    console.log(
      `GET …/changes cold (nothing kept: another process, or after a restart): ${ms(cold.ms)} = ${ratio(cold.ms / median(diffTimes))} git`,
    );
    return cases.map((c) => ({
      bench: 'merge-requests',
      label: c.name,
      value: `${ms(c.api)} vs ${ms(c.git)} = ${ratio(c.api / c.git)}`,
      target: `≤ ${TARGET}× git`,
      status: c.api / c.git <= TARGET ? 'meets' : 'misses',
    }));
  } finally {
    await app.close();
  }
}

export const mergeRequestsBench: Benchmark = {
  name: 'merge-requests',
  description: 'PUT …/merge beside git merge, and GET …/changes of a 1,000-file merge request beside git diff',
  run,
};
