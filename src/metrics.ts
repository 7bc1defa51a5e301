import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { JobCounts } from './jobs/queue';
import type { JobOutcome } from './jobs/worker';
import type { PoolStats } from './db/postgres';
import type { ProcessPoolStats } from './git/process-pool';
import type { CiActivity } from './services/ci/activity';
import { RequestHistogram } from './lib/request-histogram';

/**
 * What the instance reports beyond what it measures itself, read on each scrape. The composition
 * root (`app.ts`) fills them in as it builds what they read; a source not (yet) given reports nothing.
 */
export interface MetricSources {
  jobs?: () => Promise<JobCounts[]>;
  ci?: () => Promise<CiActivity>;
  gitPools?: () => Array<{ pool: string } & ProcessPoolStats>;
  /** PostgreSQL's connections; none on SQLite. */
  databasePool?: () => PoolStats;
  ssh?: () => { connections: number; sessions: number };
}

/** Requests: from a millisecond (a cached `GET /user`) to a minute (a clone of a large repository). */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Statements: most take well under a millisecond. */
const STATEMENT_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5];
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300];

let processRegistry: Registry | undefined;

/**
 * The process's own metrics (memory, CPU, event-loop lag, GC, handles: prom-client's defaults),
 * made once per process, not per app: they describe the process, which two apps in one process
 * (tests, benchmarks) share, and their collectors (a GC observer, an event-loop delay monitor)
 * cannot be stopped.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * Forge's metrics, one registry per app: what it measures as it works (requests, statements, job
 * runs) and what it reads from its parts on each scrape (`sources`), in Prometheus' text format.
 */
export class ForgeMetrics {
  readonly contentType = Registry.PROMETHEUS_CONTENT_TYPE;
  readonly sources: MetricSources = {};
  private readonly registry = new Registry();

  /** Every request observes it: not prom-client's `Histogram` (`lib/request-histogram.ts`). */
  private readonly requests = new RequestHistogram(
    'forge_http_request_duration_seconds',
    'HTTP requests by method, route template (unmatched: no route) and status, and how long they took to answer',
    REQUEST_BUCKETS,
    this.registry,
  );
  private readonly statements = new Histogram({
    name: 'forge_db_statement_duration_seconds',
    help: 'Database statements and how long each took',
    buckets: STATEMENT_BUCKETS,
    registers: [this.registry],
  });
  private readonly jobRuns = new Histogram({
    name: 'forge_job_run_duration_seconds',
    help: 'Background job runs by kind and outcome (completed, failed: to be retried, given_up), and how long they took',
    labelNames: ['kind', 'outcome'] as const,
    buckets: JOB_BUCKETS,
    registers: [this.registry],
  });
  private readonly jobs = new Gauge({
    name: 'forge_jobs',
    help: 'Background jobs by kind and state: queued (due), scheduled (waiting to be retried), running, failed (given up, kept a week)',
    labelNames: ['kind', 'state'] as const,
    registers: [this.registry],
  });
  private readonly oldestQueued = new Gauge({
    name: 'forge_jobs_oldest_queued_age_seconds',
    help: 'How long the oldest due job has waited for a worker (0 when none waits)',
    registers: [this.registry],
  });
  private readonly builds = new Gauge({
    name: 'forge_ci_builds',
    help: 'CI builds waiting for a runner (pending) and running',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  private readonly runners = new Gauge({
    name: 'forge_ci_runners_online',
    help: 'Runners that made contact within the last 2 hours (GitLab online rule; contacted_at is written every 40 to 80 minutes)',
    registers: [this.registry],
  });
  private readonly gitProcesses = new Gauge({
    name: 'forge_git_pool_processes',
    help: 'Long-lived git processes (cat-file, diff-tree) alive, by pool',
    labelNames: ['pool'] as const,
    registers: [this.registry],
  });
  private readonly gitStarted = sourcedCounter(this.registry, 'forge_git_pool_started_total', 'Git processes started by each pool');
  private readonly gitEvicted = sourcedCounter(
    this.registry,
    'forge_git_pool_evictions_total',
    "Git processes closed to make room for another repository's (the pool was full)",
  );
  private readonly gitWaits = sourcedCounter(
    this.registry,
    'forge_git_pool_waits_total',
    "Requests that waited behind another on their repository's git process",
  );
  private readonly dbConnections = new Gauge({
    name: 'forge_db_pool_connections',
    help: 'PostgreSQL connections: of the transactions pool (idle or busy) and shared (pipelined statements outside transactions)',
    labelNames: ['pool', 'state'] as const,
    registers: [this.registry],
  });
  private readonly dbWaiting = new Gauge({
    name: 'forge_db_pool_waiting',
    help: 'PostgreSQL: transactions waiting for a connection, and statements sent on shared connections awaiting their answer',
    labelNames: ['pool'] as const,
    registers: [this.registry],
  });
  private readonly sshConnections = new Gauge({
    name: 'forge_ssh_connections',
    help: 'SSH connections open',
    registers: [this.registry],
  });
  private readonly sshSessions = new Gauge({
    name: 'forge_ssh_sessions',
    help: 'Git commands running over SSH',
    registers: [this.registry],
  });

  constructor() {
    processMetrics();
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe(method, route, status, seconds);
  }

  readonly observeStatement = (seconds: number): void => this.statements.observe(seconds);

  readonly observeJobRun = (kind: string, outcome: JobOutcome, seconds: number): void => this.jobRuns.observe({ kind, outcome }, seconds);

  /** Every metric, the sources read now; a source that fails is left out and told to `onError`. */
  async text(onError: (source: string, error: unknown) => void): Promise<string> {
    // A source that fails reports nothing this time, rather than what it said last time.
    const read = async (source: keyof MetricSources, update: () => Promise<void> | void, gauges: Gauge[]) => {
      try {
        if (this.sources[source]) await update();
      } catch (error) {
        for (const gauge of gauges) gauge.reset();
        onError(source, error);
      }
    };
    await Promise.all([
      read('jobs', async () => this.updateJobs(await this.sources.jobs!()), [this.jobs, this.oldestQueued]),
      read('ci', async () => this.updateCi(await this.sources.ci!()), [this.builds, this.runners]),
      read('gitPools', () => this.updateGitPools(this.sources.gitPools!()), [this.gitProcesses]),
      read('databasePool', () => this.updateDatabasePool(this.sources.databasePool!()), [this.dbConnections, this.dbWaiting]),
      read('ssh', () => this.updateSsh(this.sources.ssh!()), [this.sshConnections, this.sshSessions]),
    ]);
    return (await processMetrics().metrics()) + (await this.registry.metrics());
  }

  close(): void {
    this.registry.clear();
  }

  private updateJobs(counts: JobCounts[]): void {
    this.jobs.reset();
    let oldest: string | null = null;
    for (const row of counts) {
      for (const state of ['queued', 'scheduled', 'running', 'failed'] as const) this.jobs.set({ kind: row.kind, state }, row[state]);
      if (row.oldestQueuedAt !== null && (oldest === null || row.oldestQueuedAt < oldest)) oldest = row.oldestQueuedAt;
    }
    this.oldestQueued.set(oldest === null ? 0 : Math.max(0, (Date.now() - Date.parse(oldest)) / 1000));
  }

  private updateCi(activity: CiActivity): void {
    this.builds.set({ status: 'pending' }, activity.pendingBuilds);
    this.builds.set({ status: 'running' }, activity.runningBuilds);
    this.runners.set(activity.onlineRunners);
  }

  private updateGitPools(pools: Array<{ pool: string } & ProcessPoolStats>): void {
    for (const { pool, processes, started, evicted, waits } of pools) {
      this.gitProcesses.set({ pool }, processes);
      this.gitStarted.set(pool, started);
      this.gitEvicted.set(pool, evicted);
      this.gitWaits.set(pool, waits);
    }
  }

  private updateDatabasePool(stats: PoolStats): void {
    const busy = stats.transactionConnections - stats.idleTransactionConnections;
    this.dbConnections.set({ pool: 'transactions', state: 'idle' }, stats.idleTransactionConnections);
    this.dbConnections.set({ pool: 'transactions', state: 'busy' }, busy);
    this.dbConnections.set({ pool: 'shared', state: 'open' }, stats.sharedConnections);
    this.dbWaiting.set({ pool: 'transactions' }, stats.waitingForTransactionConnection);
    this.dbWaiting.set({ pool: 'shared' }, stats.sharedPendingStatements);
  }

  private updateSsh(stats: { connections: number; sessions: number }): void {
    this.sshConnections.set(stats.connections);
    this.sshSessions.set(stats.sessions);
  }
}

/** A counter by pool whose totals are kept elsewhere (a git process pool) and copied in on each scrape. */
function sourcedCounter(registry: Registry, name: string, help: string) {
  const counter = new Counter({ name, help, labelNames: ['pool'] as const, registers: [registry] });
  return {
    set(pool: string, total: number): void {
      counter.remove({ pool });
      counter.inc({ pool }, total);
    },
  };
}
