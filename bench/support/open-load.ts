/**
 * An open-model, fixed-rate load generator, as GitLab's Performance Tool (k6 with a constant
 * arrival rate) loads an endpoint: request i is sent at start + i / rate whatever the server does,
 * and its time to first byte is counted from that due time, so a server that falls behind shows its
 * queue instead of a flattering average (a closed loop like autocannon only sends when a previous
 * answer came back, and slows down with the server).
 *
 * Run as a child process (`runOpenLoad`), so that the generator never shares the server's event
 * loop; the plan comes as JSON in argv[2], the report goes to stdout as one JSON line.
 */
import http from 'node:http';
import { runInChild } from './child-load';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { percentile } from './stats';

export interface OpenLoadTarget {
  url: string;
  headers?: Record<string, string>;
}

export interface OpenLoadPlan {
  /** Request i goes to targets[i mod length]: one target, or an interleaved mix in equal shares. */
  targets: OpenLoadTarget[];
  rate: number;
  seconds: number;
  /** How long answers still outstanding at the end of the window are waited for before being counted as failed. */
  graceSeconds: number;
}

const WINDOW_SECONDS = 10;

/** GPT's pass rules: p90 TTFB under the threshold, 80 % of the rate reached, over 99 % successful. */
const GPT_RULES = { rateShare: 0.8, success: 0.99 };

export interface LoadSummary {
  targetRate: number;
  /** Answers completed within the window, per second of the window. */
  achievedRate: number;
  p50: number;
  p90: number;
  p99: number;
  /** Share of sent requests answered 2xx or 3xx (unanswered ones count as failed). */
  success: number;
}

export interface OpenLoadReport {
  total: LoadSummary;
  /** p90 TTFB of the requests due in each successive `WINDOW_SECONDS` of the run: a queue built at the start and never drained shows here. */
  p90ByWindow: number[];
  /** The same per target, in plan order (one entry when the plan has one target). */
  perTarget: LoadSummary[];
}

interface Sample {
  target: number;
  due: number;
  /** From the due time to the answer's status line and headers; for unanswered requests, to when they were given up. */
  ttfb: number;
  /** When the whole answer was read, or NaN. */
  done: number;
  status: number;
}

function summarize(samples: Sample[], rate: number, seconds: number, end: number): LoadSummary {
  const completed = samples.filter((s) => s.done <= end).length;
  const good = samples.filter((s) => s.status >= 200 && s.status < 400).length;
  const ttfbs = samples.map((s) => s.ttfb);
  return {
    targetRate: rate,
    achievedRate: completed / seconds,
    p50: percentile(ttfbs, 50),
    p90: percentile(ttfbs, 90),
    p99: percentile(ttfbs, 99),
    success: samples.length === 0 ? 0 : good / samples.length,
  };
}

export function gptPasses(summary: LoadSummary, thresholdMs: number): boolean {
  return (
    summary.p90 < thresholdMs && summary.achievedRate >= GPT_RULES.rateShare * summary.targetRate && summary.success > GPT_RULES.success
  );
}

async function generate(plan: OpenLoadPlan): Promise<OpenLoadReport> {
  // Enough sockets that the client never queues: the server's backlog is what is measured.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const total = Math.round(plan.rate * plan.seconds);
  const samples: Sample[] = [];
  const pending = new Set<http.ClientRequest>();
  const start = performance.now() + 50;
  const end = start + plan.seconds * 1000;

  const send = (i: number) => {
    const target = i % plan.targets.length;
    const sample: Sample = { target, due: start + (i * 1000) / plan.rate, ttfb: NaN, done: NaN, status: 0 };
    samples.push(sample);
    const { url, headers } = plan.targets[target];
    const request = http.get(url, { agent, headers }, (response) => {
      sample.ttfb = performance.now() - sample.due;
      response.on('data', () => {});
      response.on('end', () => {
        sample.status = response.statusCode ?? 0;
        sample.done = performance.now();
        pending.delete(request);
      });
      response.on('error', () => pending.delete(request));
    });
    request.on('error', () => pending.delete(request));
    pending.add(request);
  };

  // Sends everything due by now, then sleeps until the next due time: a late timer sends a burst, never skips.
  await new Promise<void>((resolve) => {
    let next = 0;
    const tick = () => {
      const now = performance.now();
      while (next < total && start + (next * 1000) / plan.rate <= now) send(next++);
      if (next >= total) return resolve();
      setTimeout(tick, Math.max(0, start + (next * 1000) / plan.rate - performance.now()));
    };
    setTimeout(tick, Math.max(0, start - performance.now()));
  });

  const deadline = end + plan.graceSeconds * 1000;
  while (pending.size > 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  const givenUp = performance.now();
  for (const sample of samples) if (Number.isNaN(sample.ttfb)) sample.ttfb = givenUp - sample.due;
  for (const request of pending) request.destroy();
  agent.destroy();

  const windows = Array.from({ length: Math.ceil(plan.seconds / WINDOW_SECONDS) }, (_, w) =>
    samples.filter((s) => Math.floor((s.due - start) / 1000 / WINDOW_SECONDS) === w).map((s) => s.ttfb),
  );
  return {
    total: summarize(samples, plan.rate, plan.seconds, end),
    p90ByWindow: windows.map((ttfbs) => percentile(ttfbs, 90)),
    perTarget: plan.targets.map((_, t) =>
      summarize(
        samples.filter((s) => s.target === t),
        plan.rate / plan.targets.length,
        plan.seconds,
        end,
      ),
    ),
  };
}

const self = fileURLToPath(import.meta.url);

/** Runs one plan in a child process and answers its report. */
export function runOpenLoad(plan: OpenLoadPlan): Promise<OpenLoadReport> {
  return runInChild(self, plan);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  generate(JSON.parse(process.argv[2]) as OpenLoadPlan).then(
    (report) => console.log(JSON.stringify(report)),
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
