import fs from 'node:fs';
import path from 'node:path';
import { Session } from 'node:inspector/promises';

/**
 * Runs `work` under V8's CPU profiler when `BENCH_PROFILE_DIR` names a folder, and writes the
 * profile there as `<name>.cpuprofile` (open it in Chrome's DevTools or speedscope): the measured
 * requests alone, without start-up and seeding. `BENCH_PROFILE_INTERVAL_US` samples more often
 * than V8's 1,000 µs (100 for requests of a millisecond).
 */
export async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_PROFILE_DIR;
  if (!dir) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  // V8 samples every millisecond by default: too coarse for requests of a millisecond or less.
  await session.post('Profiler.setSamplingInterval', { interval: Number(process.env.BENCH_PROFILE_INTERVAL_US) || 1000 });
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}
