/** Progress on stderr, `forge backup: …`: phases as they start, and counts at most once a second while one runs. */
export class Progress {
  private lastTick = 0;

  constructor(
    private readonly prefix: string,
    private readonly out: NodeJS.WritableStream = process.stderr,
  ) {}

  say(text: string): void {
    this.out.write(`${this.prefix}: ${text}\n`);
  }

  /** A count within a phase, said when a second has passed since the last one. */
  tick(text: () => string): void {
    const now = Date.now();
    if (now - this.lastTick < 1000) return;
    this.lastTick = now;
    this.say(text());
  }
}

export const mebibytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
