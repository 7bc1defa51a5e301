import fs from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** CPU time of a process from /proc (user + system), in ms; 0 when unreadable (not Linux, gone). */
function processCpuMs(pid: number | string, which: 'own' | 'waited children' = 'own'): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces) start at the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const at = which === 'own' ? 11 : 13;
    return (Number(fields[at]) + Number(fields[at + 1])) * TICK_MS;
  } catch {
    return 0;
  }
}

function childPids(pid: number): number[] {
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter((p) => p !== '')
      .map(Number);
  } catch {
    return [];
  }
}

/** CPU spent so far by another process (a load generator, say), in ms to the 10 ms tick. */
export function otherProcessCpuMs(pid: number | undefined): number {
  return pid === undefined ? 0 : processCpuMs(pid);
}

/**
 * CPU spent by this process and the git processes it runs: its own, the children it has waited for
 * (one-off git commands) and the live ones (long-lived cat-file and diff-tree). The load generator
 * runs in a child too: pass its pid to leave it out.
 */
export function serverCpuMs(excludePid?: number): number {
  const live = childPids(process.pid).filter((pid) => pid !== excludePid);
  // This process's own time to the microsecond (/proc counts in 10 ms ticks: a quarter of a request's
  // cost over 400 requests); its children's, waited for or live, in ticks.
  const { user, system } = process.cpuUsage();
  const own = (user + system) / 1000;
  const waited = processCpuMs(process.pid, 'waited children');
  return own + waited + live.reduce((sum, pid) => sum + processCpuMs(pid), 0);
}

/**
 * CPU spent so far by each of the PostgreSQL server's processes on this machine, by pid (none when
 * there are none). Compare two with `cpuSince`: a backend that ended in between takes its time with it.
 */
export function postgresCpu(): Map<string, number> {
  const byPid = new Map<string, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') byPid.set(entry, processCpuMs(entry));
    } catch {
      // gone meanwhile
    }
  }
  return byPid;
}

/** CPU spent since `before` by the processes alive now (those started since count whole). */
export function cpuSince(before: Map<string, number>, now: Map<string, number>): number {
  let total = 0;
  for (const [pid, ms] of now) total += ms - (before.get(pid) ?? 0);
  return total;
}

/**
 * Busy and total CPU time of the whole machine so far, from /proc/stat's first line (all cores, in
 * ms): near saturation a few per cent more CPU on the machine makes queues, and p90, grow many times.
 */
export function machineCpuMs(): { busy: number; total: number } {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
    // user nice system idle iowait irq softirq steal
    const idle = fields[3] + fields[4];
    const total = fields.reduce((sum, value) => sum + value, 0);
    return { busy: (total - idle) * TICK_MS, total: total * TICK_MS };
  } catch {
    return { busy: 0, total: 0 };
  }
}
