/**
 * Site-grouped folds for `npm run eval`: every page of a site (its registrable domain, or the benchmark's own
 * site field) falls in one fold, so a fold's figure is what the rules score on sites outside the other folds.
 * The extractor's rules are hand-written, not trained, so the folds do two things: the spread of the per-fold
 * figures shows how much a figure rests on a few sites, and a rule with a tunable setting is tuned on the
 * other folds and scored on the held-out one (`crossValidate`), which is the figure to trust for it.
 */
import { getDomain } from "tldts";

/** Five folds: on the smallest set (aeb, 55 sites) that keeps 11 sites a fold. */
export const FOLDS = 5;

/** The registrable domain of a URL or host name ("www.bbc.co.uk" → "bbc.co.uk"); the host when it has none. */
export function siteOf(urlOrHost: string): string {
  let host = urlOrHost.trim().toLowerCase();
  try {
    host = new URL(host.includes("://") ? host : `http://${host}`).hostname;
  } catch {
    // Not a URL: the string itself names the site.
  }
  return getDomain(host) ?? host;
}

/** FNV-1a, so the fold of a site does not change between runs, machines or page orders. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * Page ids per fold. Sites are dealt largest first (ties by hash) to the fold with the fewest pages, so the
 * folds are near equal in pages even when one site has many.
 */
export function assignFolds(sites: Record<string, string>, k = FOLDS): string[][] {
  const bySite = new Map<string, string[]>();
  for (const [id, site] of Object.entries(sites)) {
    const list = bySite.get(site);
    if (list) list.push(id);
    else bySite.set(site, [id]);
  }
  const order = [...bySite.entries()].sort(
    (a, b) => b[1].length - a[1].length || hash(a[0]) - hash(b[0]) || (a[0] < b[0] ? -1 : 1),
  );
  const folds: string[][] = Array.from({ length: k }, () => []);
  for (const [, ids] of order) {
    let smallest = 0;
    for (let i = 1; i < k; i++) if (folds[i]!.length < folds[smallest]!.length) smallest = i;
    folds[smallest]!.push(...ids);
  }
  return folds.map((f) => f.sort());
}

export interface Spread {
  /** One figure per fold, in fold order. */
  folds: number[];
  mean: number;
  /** Sample standard deviation over the folds. */
  sd: number;
  min: number;
  max: number;
}

export function spread(values: number[]): Spread {
  const n = values.length;
  const mean = n ? values.reduce((a, b) => a + b, 0) / n : 0;
  const sd = n > 1 ? Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1)) : 0;
  return { folds: values, mean, sd, min: Math.min(...values), max: Math.max(...values) };
}

/** Each figure of `score` computed on every fold alone. */
export function perFold<F extends Record<string, number>>(
  folds: string[][],
  score: (ids: string[]) => F,
  metrics: (keyof F & string)[],
): Record<string, Spread> {
  const byFold = folds.map((ids) => score(ids));
  const out: Record<string, Spread> = {};
  for (const m of metrics) out[m] = spread(byFold.map((f) => f[m] ?? 0));
  return out;
}

export interface CrossValidation<P> {
  /** The setting chosen on the other folds, per held-out fold. */
  chosen: P[];
  /** The held-out fold's figure with that setting. */
  heldOut: Spread;
  /** The figure of the setting that is best on all pages (the dev figure a tuner would report). */
  dev: number;
  devBest: P;
}

/**
 * Nested evaluation of a tunable setting: for each fold, the setting that scores best on the other folds
 * (ties: the earlier setting in `settings`, so list the default first) is scored on the held-out fold.
 * `score(setting, ids)` must be a mean over pages (or pooled counts) on the given ids.
 */
export function crossValidate<P>(
  folds: string[][],
  settings: P[],
  score: (setting: P, ids: string[]) => number,
): CrossValidation<P> {
  if (settings.length === 0) throw new Error("crossValidate needs at least one setting");
  const all = folds.flat();
  const best = (ids: string[]): P => {
    let top = settings[0] as P;
    let topScore = score(top, ids);
    for (const s of settings.slice(1)) {
      const v = score(s, ids);
      if (v > topScore + 1e-12) {
        top = s;
        topScore = v;
      }
    }
    return top;
  };
  const chosen: P[] = [];
  const held: number[] = [];
  folds.forEach((ids, i) => {
    const train = folds.filter((_, j) => j !== i).flat();
    const p = best(train);
    chosen.push(p);
    held.push(score(p, ids));
  });
  const devBest = best(all);
  return { chosen, heldOut: spread(held), dev: score(devBest, all), devBest };
}

/** "0.983 | folds 0.97 0.99 … mean 0.975 ±0.012 min 0.960". */
export function formatSpread(name: string, dev: number, s: Spread): string {
  const f = (x: number): string => x.toFixed(3);
  return `${name.padEnd(18)} dev ${f(dev)}  held-out folds mean ${f(s.mean)} ±${f(s.sd)} (min ${f(s.min)})  [${s.folds.map(f).join(" ")}]`;
}
