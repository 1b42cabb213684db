/**
 * A one-line progress bar for long work (the simulator's backfill) on stderr. On a terminal it redraws
 * in place at most every 200 ms; elsewhere (CI, a log file) it prints a plain line every 10 %, so logs
 * stay readable.
 */
export class ProgressBar {
  private lastDrawMs = 0;
  private lastTenth = -1;
  private readonly tty: boolean;

  constructor(
    private readonly label: string,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {
    this.tty = Boolean(stream.isTTY);
  }

  update(fraction: number, detail: string): void {
    const clamped = Math.min(1, Math.max(0, fraction));
    if (this.tty) {
      const now = Date.now();
      if (now - this.lastDrawMs < 200 && clamped < 1) return;
      this.lastDrawMs = now;
      this.stream.write(`\r${render(this.label, clamped, detail)}\x1b[K`);
      return;
    }
    const tenth = Math.floor(clamped * 10);
    if (tenth === this.lastTenth) return;
    this.lastTenth = tenth;
    this.stream.write(`${render(this.label, clamped, detail)}\n`);
  }

  done(detail: string): void {
    this.update(1, detail);
    if (this.tty) this.stream.write('\n');
  }
}

export function render(label: string, fraction: number, detail: string, width = 30): string {
  const filled = Math.round(fraction * width);
  return `${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}% ${detail}`;
}
