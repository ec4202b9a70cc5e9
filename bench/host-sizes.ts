/**
 * Pages per host for the scale simulation: a heavy-tailed (Zipf) spread of a day's pages over the hosts,
 * the largest capped. Rank i gets a share ∝ i^-exponent; hosts above the cap keep the cap and the rest
 * is spread over the others in the same proportions (water-filling), so the pages add up exactly.
 * Exponent 1.1 over 10,000 hosts and 5 M pages: a few hosts at the cap, a few hundred over 1,000 a day,
 * most under 200 (`npm run bench -- --only scale` prints the spread it used).
 */
export interface HostSizeSpread {
  /** Zipf exponent: 0 spreads the pages evenly; larger puts more of them on the biggest hosts. */
  readonly exponent: number;
  /** Most pages one host publishes in a day. */
  readonly maxPagesPerHost: number;
}

/** The scale simulation's spread (`--zipf`, `--max-host-pages`). */
export const DEFAULT_HOST_SPREAD: HostSizeSpread = { exponent: 1.1, maxPagesPerHost: 20_000 };

/** Integers, largest first, summing to `pages`; every host has at least one page when pages ≥ hosts. */
export function zipfHostSizes(hosts: number, pages: number, spread: HostSizeSpread): number[] {
  const { exponent, maxPagesPerHost: cap } = spread;
  if (!(hosts >= 1) || !Number.isInteger(hosts))
    throw new Error(`hosts must be a positive integer: ${hosts}`);
  if (!(pages >= 0) || !Number.isInteger(pages)) throw new Error(`pages must be a whole number: ${pages}`);
  if (!(cap >= 1)) throw new Error(`the largest host must have at least one page: ${cap}`);
  if (pages > hosts * cap)
    throw new Error(`${pages} pages do not fit on ${hosts} hosts of at most ${cap} pages each`);
  const weights = Array.from({ length: hosts }, (_, i) => (i + 1) ** -exponent);
  const filled = (scale: number) => weights.reduce((s, w) => s + Math.min(cap, scale * w), 0);
  // The scale at which the capped shares hold exactly `pages` (filled() grows with the scale).
  let lo = 0;
  let hi = pages / weights[hosts - 1]!;
  for (let i = 0; i < 200 && hi - lo > 1e-9 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (filled(mid) < pages) lo = mid;
    else hi = mid;
  }
  const exact = weights.map((w) => Math.min(cap, hi * w));
  const sizes = exact.map((x) => Math.floor(x));
  const floor = pages >= hosts ? 1 : 0;
  for (let i = 0; i < hosts; i++) sizes[i] = Math.max(floor, sizes[i]!);
  // Rounding: hand out (or take back) single pages, largest remainders first, within [floor, cap].
  let diff = pages - sizes.reduce((s, x) => s + x, 0);
  const order = exact.map((x, i) => ({ i, rem: x - Math.floor(x) })).sort((a, b) => b.rem - a.rem);
  for (let pass = 0; diff !== 0 && pass < 1000; pass++) {
    for (const { i } of diff > 0 ? order : [...order].reverse()) {
      if (diff === 0) break;
      if (diff > 0 && sizes[i]! < cap) {
        sizes[i]!++;
        diff--;
      } else if (diff < 0 && sizes[i]! > floor) {
        sizes[i]!--;
        diff++;
      }
    }
  }
  return sizes.sort((a, b) => b - a);
}
