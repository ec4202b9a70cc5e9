import { describe, expect, it } from "vitest";
import { assignFolds, crossValidate, perFold, siteOf, spread } from "../../scripts/eval-folds";

describe("siteOf", () => {
  it("groups a site's hosts under its registrable domain", () => {
    expect(siteOf("https://www.bbc.co.uk/news/x")).toBe("bbc.co.uk");
    expect(siteOf("japan.cnet.com")).toBe("cnet.com");
    expect(siteOf("http://abcnews.go.com/US/story?id=1")).toBe("go.com");
  });
});

describe("assignFolds", () => {
  const sites: Record<string, string> = {};
  for (let i = 0; i < 40; i++) sites[`p${i}`] = `site${i % 13}`;

  it("keeps every page of a site in one fold and every page in exactly one fold", () => {
    const folds = assignFolds(sites, 5);
    expect(folds.flat().sort()).toEqual(Object.keys(sites).sort());
    for (let s = 0; s < 13; s++) {
      const holding = folds.filter((f) => f.some((id) => sites[id] === `site${s}`));
      expect(holding).toHaveLength(1);
    }
  });

  it("balances pages across folds and does not depend on the order pages are listed in", () => {
    const folds = assignFolds(sites, 5);
    const sizes = folds.map((f) => f.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(4);
    const reversed = Object.fromEntries(Object.entries(sites).reverse());
    expect(assignFolds(reversed, 5)).toEqual(folds);
  });
});

describe("spread and perFold", () => {
  it("reports each fold's figure, their mean, sample sd and the worst fold", () => {
    const s = spread([1, 0.5, 0]);
    expect(s.mean).toBeCloseTo(0.5);
    expect(s.sd).toBeCloseTo(0.5);
    expect(s.min).toBe(0);
    const r = perFold([["a"], ["b"]], (ids) => ({ x: ids[0] === "a" ? 1 : 0 }), ["x"]);
    expect(r.x!.folds).toEqual([1, 0]);
  });
});

describe("crossValidate", () => {
  // Pages of fold 0 want setting 1, the others setting 2: a setting tuned on all pages looks better on the
  // dev figure than it does on a held-out fold, which is what the nested figure exposes.
  const folds = [["a1", "a2"], ["b1"], ["c1"]];
  const want: Record<string, number> = { a1: 1, a2: 1, b1: 2, c1: 2 };
  const score = (setting: number, ids: string[]): number =>
    ids.filter((id) => want[id] === setting).length / ids.length;

  it("scores each fold with the setting chosen on the other folds", () => {
    const cv = crossValidate(folds, [1, 2], score);
    expect(cv.chosen).toEqual([2, 1, 1]);
    expect(cv.heldOut.folds).toEqual([0, 0, 0]);
    expect(cv.devBest).toBe(1);
    expect(cv.dev).toBe(0.5);
  });

  it("keeps the first listed setting on ties", () => {
    expect(crossValidate(folds, [3, 4], score).chosen).toEqual([3, 3, 3]);
  });
});
