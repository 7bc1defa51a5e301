export interface BenchOptions {
  /** A smaller, faster run: smaller data, fewer samples. */
  quick: boolean;
}

/** One target from the issues, checked against what was measured. */
export interface TargetCheck {
  bench: string;
  label: string;
  /** What was measured, as shown in the summary. */
  value: string;
  /** The target, in words. */
  target: string;
  status: 'meets' | 'misses' | 'not available';
}

export interface Benchmark {
  name: string;
  description: string;
  run(options: BenchOptions): Promise<TargetCheck[]>;
}
