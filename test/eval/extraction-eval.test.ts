/**
 * The developer evaluation sets in ../shared/eval, with floors just below the figures the extractor
 * reaches, so a regression fails CI. Skipped (with a message) when ../shared/eval is not beside the repo.
 * `npm run eval` prints the same figures.
 */
import { describe, expect, it } from "vitest";
import {
  EVAL_DIR,
  evalDataAvailable,
  runAeb,
  runDates,
  runFundus,
  runMercury,
  runTrafilatura,
} from "../../scripts/eval-sets";

/** Floors: measured figures minus a small margin. Raise them when the extractor improves. */
const FLOORS = {
  aeb: { f1: 0.983, accuracy: 0.6 },
  trafilatura: { f1: 0.938, headline_exact: 0.81 },
  dates: { accuracy_day: 0.95 },
  // Headline 0.925 -> 0.887 when the visible <h1> became preferred (three fundus pages whose truth is the
  // og:title), while mercury rose 0.730 -> 0.905 on every fold; kickers and site names brought fundus back
  // to 0.900 (72 of 80: one page is 0.0125). Since record version 5 Fundus's titles are scored against
  // `headline_declared ?? headline` (Fundus takes the declared title): 0.925.
  // Authors: the set's list against `authors` + `credit` (agencies are credits since record version 5): 0.887.
  // `headline` alone (what the page shows) against Fundus's titles: 0.900.
  fundus: {
    headline_exact: 0.92,
    headline_shown_exact: 0.89,
    date_day_accuracy: 0.985,
    body_f1: 0.97,
    authors_exact: 0.88,
  },
  // December 2026: headline 0.921, authors 0.922, day 1.000.
  mercury: { headline_exact: 0.915, author_match: 0.915, day_accuracy: 0.99 },
};

const available = evalDataAvailable();
if (!available) console.warn(`extraction eval skipped: no evaluation data at ${EVAL_DIR}`);

describe.skipIf(!available)("extraction evaluation sets (developer split)", () => {
  it("AEB article body: F1 and exact-match accuracy", async () => {
    const { figures } = await runAeb();
    expect(figures.f1).toBeGreaterThanOrEqual(FLOORS.aeb.f1);
    expect(figures.accuracy).toBeGreaterThanOrEqual(FLOORS.aeb.accuracy);
  });

  it("trafilatura main-text segments: F1, and the headline", async () => {
    const { figures } = await runTrafilatura();
    expect(figures.f1).toBeGreaterThanOrEqual(FLOORS.trafilatura.f1);
    expect(figures.headline_exact).toBeGreaterThanOrEqual(FLOORS.trafilatura.headline_exact);
  });

  it("htmldate publication day accuracy", async () => {
    const { figures } = await runDates();
    expect(figures.accuracy_day).toBeGreaterThanOrEqual(FLOORS.dates.accuracy_day);
  });

  it("fundus headline (declared, and shown), date, body and authors", async () => {
    const { figures } = await runFundus();
    expect(figures.headline_exact).toBeGreaterThanOrEqual(FLOORS.fundus.headline_exact);
    expect(figures.headline_shown_exact).toBeGreaterThanOrEqual(FLOORS.fundus.headline_shown_exact);
    expect(figures.date_day_accuracy).toBeGreaterThanOrEqual(FLOORS.fundus.date_day_accuracy);
    expect(figures.body_f1).toBeGreaterThanOrEqual(FLOORS.fundus.body_f1);
    expect(figures.authors_exact).toBeGreaterThanOrEqual(FLOORS.fundus.authors_exact);
  });

  it("mercury headline, authors and day (sites other than the rules were written on)", async () => {
    const { figures } = await runMercury();
    expect(figures.headline_exact).toBeGreaterThanOrEqual(FLOORS.mercury.headline_exact);
    expect(figures.author_match).toBeGreaterThanOrEqual(FLOORS.mercury.author_match);
    expect(figures.day_accuracy).toBeGreaterThanOrEqual(FLOORS.mercury.day_accuracy);
  });
});
