// Hashes and addresses are drawn for most events: two table lookups per draw rather than toString(16).
const HEX_PAIRS = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** [low, high, weight] ranges: one is drawn by weight (the weights add up to 1), then a value uniformly inside it. */
export type Ranges = readonly (readonly [low: number, high: number, weight: number])[];

/**
 * mulberry32: a tiny 32-bit PRNG. The simulator must be byte-for-byte reproducible from its seed, so
 * nothing here may touch Math.random or transcendental functions whose last bit could vary by platform.
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    // Mix the seed once so neighbouring seeds (1, 2, 3) do not start with correlated outputs.
    this.state = (Math.imul(seed >>> 0, 0x9e3779b1) ^ 0x6d2b79f5) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A skewed draw without log or exp (whose last bit may differ between platforms): see `Ranges`. */
  inRanges(ranges: Ranges): number {
    let r = this.next();
    for (const [low, high, weight] of ranges) {
      if (r < weight) return this.between(low, high);
      r -= weight;
    }
    const [low, high] = ranges.at(-1)!;
    return this.between(low, high);
  }

  /** Roughly standard normal (Irwin-Hall of four uniforms): only + and *, so exactly reproducible. */
  normal(): number {
    return (this.next() + this.next() + this.next() + this.next() - 2) * Math.sqrt(3);
  }

  /** `digits` lowercase hex digits, four per draw. */
  hex(digits: number): string {
    let out = '';
    while (out.length < digits) {
      const draw = Math.floor(this.next() * 65536);
      out += HEX_PAIRS[draw >> 8]! + HEX_PAIRS[draw & 255]!;
    }
    return out.length === digits ? out : out.slice(0, digits);
  }
}
