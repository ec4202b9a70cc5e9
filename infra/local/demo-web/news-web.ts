/**
 * The demo web's content, generated from one seed and the day: each day's wire stories, which outlets
 * pick each up and how late, the outlets' own stories; developing stories followed up at new URLs and
 * updated at the same URL on the next days; planted revisions of the day before's pages; and every
 * document each host serves (pages, AMP and print renderings, sitemaps plain, gzip, news and index,
 * RSS and Atom feeds, robots.txt, broken pages). A day's content depends only on the seed and its UTC
 * day; its times count back from the anchor shifted to that day, so two runs with the same anchor
 * serve identical bytes (and identical lastmods: a second crawl finds nothing new).
 */
import { announce, type Published } from "./announce";
import { OUTLETS, type OutletSpec, WIRE } from "./outlets";
import { renderArticle } from "./page-templates";
import { Prng } from "./prng";
import { type PageText, REVISED_OUTLET, type RevisionKind, revise } from "./revision-kinds";
import { editForOutlet, followUp, generateStory, type StoryText } from "./story-text";

const DEMO_SEED = 20_261_202;
const DAY_MS = 86_400_000;
/** Pages keep answering this many days after they were published: past a month of daily runs (the
 * 30-day bench, the hot window), while a folder crawled once long ago does not make the web build years. */
const SERVED_DAYS = 90;

export interface Route {
  readonly status: number;
  readonly type: string;
  readonly body: string | Buffer;
  /** Answers 503 to the first request, then this route (a page that fails for a moment). */
  readonly failFirst?: boolean;
}

export interface ExpectedStory {
  readonly headline: string;
  /** Canonical URL of each copy: the wire's first, then the outlets' in order of publication. */
  readonly urls: readonly string[];
  /** The UTC day (YYYY-MM-DD) of the web whose stories it is. */
  readonly day: string;
  /** Copies behind a paywall (among `urls`): the page shows its first three paragraphs of five or six
   * (a local lead-in counts as one), a third to a half of the text. Not expected to join the story: a
   * shorter text without leading names of its own confirms only when the longer's are all in it
   * (confirm.ts), and the paragraphs it hides hold some (2026-12-26's: 87 words, 83 shingles, Jaccard
   * 0.38, containment 0.88, numbers 4/4 and names 4/4 agree, 2 of the wire's 3 sketched leading names
   * found: refused; 2026-12-25's, 106 words, had them all and joined). */
  readonly excerpts: readonly string[];
}

/** A wire story that runs over three days: followed up at a new URL on each of the next two days,
 * and its original updated at the same URL the next day. All of it is one story. */
export interface DevelopingStory extends ExpectedStory {
  readonly followUps: readonly { readonly url: string; readonly day: string }[];
  readonly updates: readonly { readonly url: string; readonly day: string }[];
}

/** A page changed at the same URL on `day` (its lastmod `at`), and what changed (revision-kinds.ts). */
export interface PlannedRevision {
  readonly url: string;
  readonly kind: RevisionKind;
  readonly day: string;
  readonly at: string;
  readonly change: string;
}

export interface NewsWeb {
  /** Origin per outlet id (the wire included). */
  readonly routes: Map<string, Map<string, Route>>;
  readonly sources: { sources: Record<string, unknown>[] };
  /** Wire stories carried by more than one outlet, every served day's. */
  readonly syndicated: readonly ExpectedStory[];
  /** The developing stories begun on the served days, with their follow-ups and updates so far. */
  readonly developing: readonly DevelopingStory[];
  /** Every change at the same URL on the served days, in order. */
  readonly revisions: readonly PlannedRevision[];
  /** What the broken and hidden URLs must fail with, by reason (today's listing). */
  readonly failures: Readonly<Record<string, number>>;
  /** The first and last day served (YYYY-MM-DD). */
  readonly days: { readonly first: string; readonly last: string };
}

const HTML = "text/html; charset=utf-8";

const slugOf = (headline: string) =>
  headline
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 60);

/** How many outlets pick up each wire story, in order (the last one stays on the wire alone). */
const PICKUPS = [9, 6, 4, 3, 2, 0];
/** The day's wire story that develops over the next two days (six outlets carry it). */
const DEVELOPING = 1;

const dayNumber = (instant: Date | string) => Math.floor(new Date(instant).getTime() / DAY_MS);
const dayKey = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, "Z");

/** A day's generator seed: the web's seed mixed with the day (nearby seeds would give shifted streams). */
function daySeed(day: number): number {
  let h = Math.imul(DEMO_SEED ^ day, 0x9e3779b1);
  h ^= h >>> 15;
  return Math.imul(h, 0x85ebca6b) ^ (h >>> 13);
}

interface Version extends PageText {
  /** When this version went up (the page's lastmod). */
  readonly at: string;
}

interface Article {
  readonly outlet: OutletSpec;
  readonly day: number;
  readonly path: string;
  readonly url: string;
  readonly section: string;
  readonly published: string;
  readonly summary?: string;
  readonly free: boolean;
  /** The page as first published, then each revision at the same URL. */
  readonly versions: Version[];
}

/** A developing story's plan while the days are built (NewsWeb.developing, read-only). */
interface DevelopingPlan extends ExpectedStory {
  readonly followUps: { url: string; day: string }[];
  readonly updates: { url: string; day: string }[];
}

interface WireStory {
  readonly story: StoryText;
  readonly wire: Article;
  readonly plan?: DevelopingPlan;
}

interface Day {
  readonly wire: WireStory[];
  /** Each outlet's own stories of the day. */
  readonly own: Map<string, Article[]>;
}

/**
 * The web as it stands on `anchor`'s UTC day, with every day from `firstDay` (default: the anchor's
 * day; at most SERVED_DAYS back) published: a folder crawled on consecutive days passes its first
 * day, so the web it meets has the history its earlier crawls saw.
 */
export function buildNewsWeb(
  origins: ReadonlyMap<string, string>,
  anchor: Date,
  opts: { readonly firstDay?: string } = {},
): NewsWeb {
  const today = dayNumber(anchor);
  const first = Math.max(
    Math.min(opts.firstDay ? dayNumber(opts.firstDay) : today, today),
    today - SERVED_DAYS + 1,
  );
  const articles = new Map<string, Article[]>();
  const days = new Map<number, Day>();
  const syndicated: ExpectedStory[] = [];
  const developing: DevelopingStory[] = [];
  const revisions: PlannedRevision[] = [];

  const publish = (
    o: OutletSpec,
    day: number,
    text: PageText,
    meta: { section: string; published: string; summary?: string; free?: boolean },
  ): Article => {
    const list = articles.get(o.id) ?? [];
    articles.set(o.id, list);
    // The article's number on the site: unique across days, so two days' equal headlines differ.
    const n = day * 100 + list.filter((a) => a.day === day).length;
    const path = o.path(`${slugOf(text.headline)}-${n.toString(36)}`, meta.published, meta.section, n);
    const article: Article = {
      outlet: o,
      day,
      path,
      url: `${origins.get(o.id)!}${path}`,
      section: meta.section,
      published: meta.published,
      ...(meta.summary ? { summary: meta.summary } : {}),
      free: meta.free !== false,
      versions: [{ headline: text.headline, paragraphs: text.paragraphs, at: meta.published }],
    };
    list.push(article);
    return article;
  };

  for (let day = first; day <= today; day++) {
    const rng = new Prng(daySeed(day));
    const dayAnchor = anchor.getTime() - (today - day) * DAY_MS;
    const at = (minutesBefore: number) => iso(dayAnchor - Math.round(minutesBefore) * 60_000);
    const key = dayKey(day);
    const todays: Day = { wire: [], own: new Map() };
    days.set(day, todays);

    // Wire stories, each picked up by the outlets that are quickest for it.
    PICKUPS.forEach((pickups, i) => {
      const story = generateStory(rng);
      const wirePublished = at(22 * 60 - i * 170 - rng.int(0, 40));
      const wire = publish(WIRE, day, story, { ...story, published: wirePublished });
      const copies = rng.sample(OUTLETS, pickups).map((o) => {
        const delay = o.pickupMinutes * (0.6 + rng.next() * 0.8);
        const edit = editForOutlet(story, rng, o.publication);
        const published = iso(Date.parse(wirePublished) + Math.round(delay) * 60_000);
        // One wire copy behind Ironwood's paywall: flagged, never worked around.
        const free = !(o.id === "ironwood-times" && i === 1);
        return publish(o, day, edit, { section: story.section, published, summary: story.summary, free });
      });
      const urls = [
        wire.url,
        ...copies.sort((a, b) => a.published.localeCompare(b.published)).map((c) => c.url),
      ];
      const excerpts = copies.filter((c) => !c.free).map((c) => c.url);
      if (copies.length > 0) syndicated.push({ headline: story.headline, urls, day: key, excerpts });
      const plan: DevelopingPlan | undefined =
        i === DEVELOPING
          ? { headline: story.headline, urls, day: key, excerpts, followUps: [], updates: [] }
          : undefined;
      if (plan) developing.push(plan);
      todays.wire.push({ story, wire, ...(plan ? { plan } : {}) });
    });
    // Each outlet's own stories.
    for (const o of OUTLETS) {
      const own: Article[] = [];
      for (let k = 0; k < 2; k++) {
        const story = generateStory(rng);
        const free = !(o.id === "ironwood-times" && k === 0);
        own.push(publish(o, day, story, { ...story, published: at(rng.int(60, 20 * 60)), free }));
      }
      todays.own.set(o.id, own);
    }

    // Changes to earlier days' pages come last, from the same generator: a day's own stories are the
    // same whichever day the web started on.
    const revisePage = (a: Article, kind: RevisionKind) => {
      const revised = revise(kind, a.versions.at(-1)!, rng);
      const when = at(rng.int(60, 20 * 60));
      a.versions.push({ headline: revised.headline, paragraphs: revised.paragraphs, at: when });
      revisions.push({ url: a.url, kind, day: key, at: when, change: revised.change });
    };
    const yesterday = days.get(day - 1);
    if (yesterday) {
      for (const [kind, outlet] of Object.entries(REVISED_OUTLET))
        revisePage(yesterday.own.get(outlet)![1]!, kind as RevisionKind);
      const story = yesterday.wire[DEVELOPING]!;
      revisePage(story.wire, "update");
      story.plan!.updates.push({ url: story.wire.url, day: key });
    }
    for (const [nth, earlier] of [
      [1, yesterday],
      [2, days.get(day - 2)],
    ] as const) {
      if (!earlier) continue;
      const { story, plan } = earlier.wire[DEVELOPING]!;
      const text = followUp(story, rng, nth);
      const page = publish(WIRE, day, text, { ...text, published: at(rng.int(4 * 60, 20 * 60)) });
      plan!.followUps.push({ url: page.url, day: key });
    }
  }

  const routes = new Map<string, Map<string, Route>>();
  const listings = new Map<string, Published[]>();
  for (const o of [WIRE, ...OUTLETS]) {
    const r = new Map<string, Route>();
    routes.set(o.id, r);
    const list: Published[] = [];
    listings.set(o.id, list);
    // Newest day first, each day in order of publication.
    const own = [...(articles.get(o.id) ?? [])].sort((a, b) => b.day - a.day);
    for (const a of own) {
      const v = a.versions.at(-1)!;
      const content = {
        headline: v.headline,
        paragraphs: v.paragraphs,
        section: a.section,
        published: a.published,
        publication: o.publication,
        canonical: a.url,
        author: o.author,
        ...(a.free ? {} : { free: false }),
        ...(a.versions.length > 1 ? { modified: v.at } : {}),
      };
      r.set(a.path, { status: 200, type: HTML, body: renderArticle(o.style, content) });
      if (o.announce === "sitemap-index")
        r.set(`/amp${a.path}`, { status: 200, type: HTML, body: renderArticle("amp", content) });
      list.push({
        path: a.path,
        url: a.url,
        day: a.day,
        headline: v.headline,
        published: a.published,
        ...(a.versions.length > 1 ? { lastmod: v.at } : {}),
        ...(a.summary ? { summary: a.summary } : {}),
      });
    }
  }

  const failures = addBrokenPages(routes.get("meadowbrook-observer")!, listings, origins, today);
  const sources = [WIRE, ...OUTLETS].map((o) =>
    announce(o, origins.get(o.id)!, routes.get(o.id)!, listings.get(o.id)!, today),
  );
  return {
    routes,
    sources: { sources },
    syndicated,
    developing,
    revisions,
    failures,
    days: { first: dayKey(first), last: dayKey(today) },
  };
}

/** Meadowbrook's sitemap also lists, each day, pages that must fail, each with its own reason. */
function addBrokenPages(
  r: Map<string, Route>,
  listings: Map<string, Published[]>,
  origins: ReadonlyMap<string, string>,
  today: number,
): Record<string, number> {
  const base = origins.get("meadowbrook-observer")!;
  const own = listings.get("meadowbrook-observer")!;
  const first = own.find((i) => i.day === today)!;
  const add = (path: string, route?: Route) => {
    if (route) r.set(path, route);
    own.push({ path, url: `${base}${path}`, headline: path, published: first.published, day: today });
  };
  add("/news/story-that-was-removed", { status: 404, type: HTML, body: "<h1>Page not found</h1>" });
  add("/news/withdrawn-report", {
    status: 410,
    type: HTML,
    body: "<h1>This article has been withdrawn</h1>",
  });
  add("/files/annual-report.pdf", { status: 200, type: "application/pdf", body: "%PDF-1.4 not a news page" });
  add("/news/in-brief", {
    status: 200,
    type: HTML,
    body: "<html><body><article><h1>In brief</h1><p>More soon.</p></article></body></html>",
  });
  add("/private/draft");
  // A page that answers 503 once: retried after the queue's delay, then fetched.
  r.set(first.path, { ...r.get(first.path)!, failFirst: true });
  return { http_404: 1, http_410: 1, not_html: 1, thin_content: 1, robots_disallowed: 1 };
}
