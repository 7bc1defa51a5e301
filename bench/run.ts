import { performance } from 'node:perf_hooks';
import type { Benchmark, TargetCheck } from './support/types';
import { databaseKind } from './support/app';
import { closeConnections } from './support/http';
import { table } from './support/stats';
import { userBench } from './user';
import { projectsBench } from './projects';
import { gitBench } from './git';
import { ciBench } from './ci';
import { runnerBench } from './runner';
import { runnerV4Bench } from './runner-v4';
import { collaborationBench } from './collaboration';
import { gptBench } from './gpt';
import { sshBench } from './ssh';
import { mergeRequestsBench } from './merge-requests';
import { backupBench } from './backup';
import { webBench } from './web';

const benchmarks: Benchmark[] = [
  userBench,
  projectsBench,
  gitBench,
  sshBench,
  ciBench,
  runnerBench,
  runnerV4Bench,
  collaborationBench,
  mergeRequestsBench,
  gptBench,
  webBench,
  backupBench,
];

function usage(): never {
  console.error(`usage: npm run bench -- [--quick] [${benchmarks.map((b) => b.name).join(' ')}]`);
  for (const bench of benchmarks) console.error(`  ${bench.name.padEnd(9)} ${bench.description}`);
  process.exit(2);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) usage();
  const quick = args.includes('--quick');
  const names = args.filter((arg) => arg !== '--quick');
  const unknown = names.filter((name) => !benchmarks.some((bench) => bench.name === name));
  if (unknown.length > 0) {
    console.error(`unknown benchmark: ${unknown.join(', ')}`);
    usage();
  }
  const chosen = names.length === 0 ? benchmarks : benchmarks.filter((bench) => names.includes(bench.name));

  console.log(`Forge benchmarks${quick ? ' (quick)' : ''} on ${databaseKind()}, Node ${process.version}`);
  const checks: TargetCheck[] = [];
  let failed = false;
  for (const bench of chosen) {
    console.log(`\n== ${bench.name}: ${bench.description}`);
    const started = performance.now();
    try {
      checks.push(...(await bench.run({ quick })));
    } catch (error) {
      // A broken benchmark is reported and the others still run.
      failed = true;
      console.error(`${bench.name} failed:`, error);
    }
    console.log(`(${bench.name} took ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
  closeConnections();

  console.log('\n== summary');
  console.log(
    table(
      ['bench', 'measure', 'value', 'target', 'result'],
      checks.map((c) => [c.bench, c.label, c.value, c.target, c.status]),
    ),
  );
  // Benchmarks measure: a missed target is news, not a failure. Only a benchmark that could not run fails.
  if (failed) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
