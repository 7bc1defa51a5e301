import type { Registry } from 'prom-client';

/** One series: a method, route and status, its buckets' own counts (not cumulative), sum and count. */
interface Series {
  labels: { method: string; route: string; status_code: number };
  counts: number[];
  sum: number;
  count: number;
}

/**
 * A Prometheus histogram of requests by method, route template and status, as prom-client's
 * `Histogram` writes it, for the one observation every request makes. prom-client labels an
 * observation by an object it validates and turns into a key string each time; here a series is
 * found by three map lookups on strings the router and the parser already hold (route templates,
 * methods), and an observation is two additions and an increment.
 */
export class RequestHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, Map<string, Map<number, Series>>>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly buckets: number[],
    registry: Registry,
  ) {
    // The registry reads any metric that answers `get()` as prom-client's own metrics do.
    registry.registerMetric(this as never);
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.series.get(route);
    if (byMethod === undefined) this.series.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (series === undefined) {
      series = { labels: { method, route, status_code: status }, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      byStatus.set(status, series);
    }
    const bucket = this.buckets.findIndex((bound) => seconds <= bound);
    if (bucket !== -1) series.counts[bucket] += 1;
    series.sum += seconds;
    series.count += 1;
  }

  /** prom-client's shape of a histogram's values: cumulative buckets, `+Inf`, sum and count per series. */
  async get() {
    const values: Array<{ labels: object; sharedLabels: object; value: number; metricName: string }> = [];
    const bucketName = `${this.name}_bucket`;
    for (const byMethod of this.series.values()) {
      for (const byStatus of byMethod.values()) {
        for (const { labels, counts, sum, count } of byStatus.values()) {
          let cumulative = 0;
          this.buckets.forEach((le, i) => {
            cumulative += counts[i];
            values.push({ labels: { le }, sharedLabels: labels, value: cumulative, metricName: bucketName });
          });
          values.push({ labels: { le: '+Inf' }, sharedLabels: labels, value: count, metricName: bucketName });
          values.push({ labels: {}, sharedLabels: labels, value: sum, metricName: `${this.name}_sum` });
          values.push({ labels: {}, sharedLabels: labels, value: count, metricName: `${this.name}_count` });
        }
      }
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.series.clear();
  }
}
