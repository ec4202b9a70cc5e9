/**
 * The extractor's tunable settings, tuned the honest way: on the other site-grouped folds, scored on the
 * held-out one (eval-folds.ts `crossValidate`). Today: the similarity a visible <h1> needs to a declared
 * headline to be preferred (headline.ts H1_MATCH), on the mercury and fundus pages pooled (both state the
 * headline; their sites are disjoint).
 */
import path from "node:path";
import { parseHtml } from "../shared/extract/dom";
import { chooseHeadline, H1_MATCH, type HeadlineInput, headlineInput } from "../shared/extract/headline";
import { collectSignals, metaValue } from "../shared/extract/page-signals";
import { names, readStructuredData } from "../shared/extract/structured-data";
import { assignFolds, type CrossValidation, crossValidate, type Spread, siteOf, spread } from "./eval-folds";
import { EVAL_DIR, readJson, readPage, ws } from "./eval-sets";

interface Page {
  input: HeadlineInput;
  title: string;
}

function headlinePages(): { pages: Record<string, Page>; sites: Record<string, string> } {
  const pages: Record<string, Page> = {};
  const sites: Record<string, string> = {};
  const sets: [string, (t: Record<string, string>) => string][] = [
    ["mercury", (t) => siteOf(t.host ?? t.url ?? "")],
    ["fundus-parser-tests", (t) => t.publisher ?? siteOf(t.url ?? "")],
  ];
  for (const [set, site] of sets) {
    const dir = path.join(EVAL_DIR, set);
    const truth = readJson<Record<string, Record<string, string>>>(path.join(dir, "ground-truth.json"));
    for (const [id, t] of Object.entries(truth)) {
      if (!t.title || !t.file || !t.url) continue;
      const signals = collectSignals(parseHtml(readPage(path.join(dir, t.file))));
      const { article } = readStructuredData(signals.jsonLd, t.url);
      const siteName =
        metaValue(signals, "og:site_name", "application-name") ??
        (article ? names(article.publisher)[0] : null);
      const key = `${set}/${id}`;
      pages[key] = { input: headlineInput(signals, article, siteName ?? null, t.url), title: t.title };
      sites[key] = `${set}:${site(t)}`;
    }
  }
  return { pages, sites };
}

export interface Tuned {
  name: string;
  cv: CrossValidation<number>;
  /** The setting in the code, per fold (the figure `npm run eval` reports elsewhere). */
  current: Spread;
  currentValue: number;
  /** Without the rule (the <h1> never preferred), per fold. */
  without: Spread;
  pages: number;
}

/** Never: a similarity above 1 turns the <h1> preference off. */
const OFF = 1.01;

export function tuneH1Match(): Tuned {
  const { pages, sites } = headlinePages();
  const folds = assignFolds(sites);
  const score = (h1Match: number, ids: string[]): number =>
    ids.length
      ? ids.filter((id) => ws(chooseHeadline(pages[id]!.input, { h1Match })) === ws(pages[id]!.title))
          .length / ids.length
      : 0;
  const settings = [H1_MATCH, OFF, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9].filter((v, i, a) => a.indexOf(v) === i);
  return {
    name: "headline <h1> similarity (mercury + fundus, headline exact)",
    cv: crossValidate(folds, settings, score),
    current: spread(folds.map((ids) => score(H1_MATCH, ids))),
    currentValue: H1_MATCH,
    without: spread(folds.map((ids) => score(OFF, ids))),
    pages: Object.keys(pages).length,
  };
}
