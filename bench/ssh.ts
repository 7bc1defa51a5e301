import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Benchmark, BenchOptions, TargetCheck } from './support/types';
import { databaseKind, startBenchApp } from './support/app';
import { apiCall } from './support/http';
import { timeSpawn } from './support/spawn';
import { median, ratio, table } from './support/stats';
import { projectWithHistory } from './git';

const CLONE_TARGET = 1.2;

/**
 * `git clone` over SSH beside the same clone over HTTP and `git clone --no-local` of the bare
 * repository (the git bench's 20,000-commit one), each once untimed, then in turns whose order
 * rotates, so that none always follows another. Clones are deleted only at the end, as in bench/git.ts.
 */
async function run({ quick }: BenchOptions): Promise<TargetCheck[]> {
  const shape = quick ? { commits: 5_000, files: 2_000 } : { commits: 20_000, files: 5_000 };
  const reps = quick ? 2 : 4;
  const app = await startBenchApp();
  try {
    const { project, repoPath, fixture } = await projectWithHistory(app, shape);
    const scratch = fs.mkdtempSync(path.join(app.config.dataDir, 'clones-'));
    const keyFile = path.join(scratch, 'id_ed25519');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', keyFile]);
    await apiCall(app.url, app.rootToken, 'POST', '/user/keys', { title: 'bench', key: fs.readFileSync(`${keyFile}.pub`, 'utf8') });
    const sshCommand = `ssh -i ${keyFile} -o IdentitiesOnly=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -F /dev/null`;
    console.log(
      `${databaseKind()}; repository of ${shape.commits} commits and ${shape.files} files, pack ${(fixture.packBytes / 2 ** 20).toFixed(1)} MiB; ${project.ssh_url_to_repo}`,
    );

    const ways: Record<string, (n: number) => Promise<{ ms: number }>> = {
      'over SSH': (n) =>
        timeSpawn('git', [
          '-c',
          `core.sshCommand=${sshCommand}`,
          'clone',
          '--quiet',
          project.ssh_url_to_repo,
          path.join(scratch, `ssh-${n}`),
        ]),
      'over HTTP': (n) => timeSpawn('git', ['clone', '--quiet', project.http_url_to_repo, path.join(scratch, `http-${n}`)]),
      'git clone --no-local': (n) => timeSpawn('git', ['clone', '--quiet', '--no-local', repoPath, path.join(scratch, `local-${n}`)]),
    };
    const names = Object.keys(ways);
    const times: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
    for (const name of names) await ways[name](0);
    for (let n = 1; n <= reps; n++) {
      for (let i = 0; i < names.length; i++) {
        const name = names[(i + n) % names.length];
        times[name].push((await ways[name](n)).ms);
      }
    }
    fs.rmSync(scratch, { recursive: true, force: true });

    const local = median(times['git clone --no-local']);
    const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;
    console.log(
      table(
        ['clone', 'median', 'vs --no-local', 'runs'],
        names.map((name) => [name, seconds(median(times[name])), ratio(median(times[name]) / local), String(reps)]),
      ),
    );
    const overSsh = median(times['over SSH']);
    return [
      {
        bench: 'ssh',
        label: 'clone over SSH',
        value: `${seconds(overSsh)} vs ${seconds(local)} = ${ratio(overSsh / local)} (HTTP ${seconds(median(times['over HTTP']))})`,
        target: `≤ ${CLONE_TARGET}× git clone --no-local`,
        status: overSsh / local <= CLONE_TARGET ? 'meets' : 'misses',
      },
    ];
  } finally {
    await app.close();
  }
}

export const sshBench: Benchmark = {
  name: 'ssh',
  description: 'clone over SSH beside clone over HTTP and git clone --no-local on a 20,000-commit repository',
  run,
};
