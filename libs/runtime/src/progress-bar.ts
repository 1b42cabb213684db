/** What has been done so far, in the unit a reader counts (fills, say): the bar shows its rate. */
export interface ProgressCount {
  done: number;
  unit: string;
}

/**
 * A one-line progress bar for long work (the simulator's backfill) on stderr, with the rate and the
 * time left at the rate so far. On a terminal it redraws in place at most every 200 ms; elsewhere (CI,
 * a log file) it prints a plain line every 10 %, so logs stay readable.
 */
export class ProgressBar {
  private readonly startedMs: number;
  private lastDrawMs = 0;
  private lastTenth = -1;
  private readonly tty: boolean;

  constructor(
    private readonly label: string,
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly clock: () => number = Date.now,
  ) {
    this.tty = Boolean(stream.isTTY);
    this.startedMs = clock();
  }

  update(fraction: number, detail: string, count?: ProgressCount): void {
    const clamped = Math.min(1, Math.max(0, fraction));
    const now = this.clock();
    if (this.tty) {
      if (now - this.lastDrawMs < 200 && clamped < 1) return;
      this.lastDrawMs = now;
      this.stream.write(`\r${render(this.label, clamped, this.annotate(detail, clamped, now, count))}\x1b[K`);
      return;
    }
    const tenth = Math.floor(clamped * 10);
    if (tenth === this.lastTenth) return;
    this.lastTenth = tenth;
    this.stream.write(`${render(this.label, clamped, this.annotate(detail, clamped, now, count))}\n`);
  }

  done(detail: string, count?: ProgressCount): void {
    this.update(1, detail, count);
    if (this.tty) this.stream.write('\n');
  }

  private annotate(detail: string, fraction: number, now: number, count: ProgressCount | undefined): string {
    const elapsedMs = now - this.startedMs;
    const parts = [detail];
    // Below a second or 1 % the rate says nothing yet.
    if (count && elapsedMs >= 1_000) parts.push(`${Math.round((count.done * 1000) / elapsedMs).toLocaleString('en')} ${count.unit}/s`);
    if (fraction >= 1) parts.push(`took ${duration(elapsedMs)}`);
    else if (fraction >= 0.01 && elapsedMs >= 1_000) parts.push(`about ${duration((elapsedMs * (1 - fraction)) / fraction)} left`);
    return parts.join(', ');
  }
}

export function render(label: string, fraction: number, detail: string, width = 30): string {
  const filled = Math.round(fraction * width);
  return `${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}% ${detail}`;
}

/** `1h02m`, `4m05s`, `12s`. */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
