/**
 * Who is on the demo web: a wire service and nine outlets, each with its own template, URL scheme,
 * way of announcing its articles and speed at picking up wire copy (minutes, before jitter).
 */
import type { TemplateStyle } from "./page-templates";

export type Announcement =
  | "sitemap-gzip" // robots.txt names /sitemap.xml.gz
  | "rss-tracking" // an RSS feed whose links carry utm_ parameters
  | "atom"
  | "news-sitemap" // robots.txt names a Google News sitemap
  | "sitemap-index" // the sources file names an index: a news child and a gzip archive child with AMP URLs
  | "sitemap-print" // robots.txt names a sitemap that also lists ?print=1 renderings
  | "rss";

export interface OutletSpec {
  readonly id: string;
  readonly publication: string;
  /** Last octet of its loopback address (127.0.0.x): one host each, so one robots.txt and pace each. */
  readonly octet: number;
  readonly style: TemplateStyle;
  readonly announce: Announcement;
  /** Article path for a slug (n: the article's number on the site). */
  readonly path: (slug: string, published: string, section: string, n: number) => string;
  /** Typical minutes to pick up a wire story. */
  readonly pickupMinutes: number;
  readonly author: string;
}

const day = (iso: string) => iso.slice(0, 10).replace(/-/g, "/");

export const WIRE: OutletSpec = {
  id: "continental-wire",
  publication: "Continental Wire",
  octet: 10,
  style: "jsonld",
  announce: "news-sitemap",
  path: (slug, p) => `/wire/${day(p)}/${slug}`,
  pickupMinutes: 0,
  author: "Continental Wire",
};

export const OUTLETS: readonly OutletSpec[] = [
  {
    id: "northgate-herald",
    publication: "Northgate Herald",
    octet: 11,
    style: "jsonld",
    announce: "sitemap-gzip",
    path: (slug, _p, section) => `/${section.toLowerCase()}/${slug}`,
    pickupMinutes: 12,
    author: "Herald Staff",
  },
  {
    id: "riverside-gazette",
    publication: "Riverside Gazette",
    octet: 12,
    style: "time",
    announce: "rss-tracking",
    path: (slug, p) => `/news/${day(p)}/${slug}`,
    pickupMinutes: 35,
    author: "Gazette Newsroom",
  },
  {
    id: "lakeshore-post",
    publication: "Lakeshore Post",
    octet: 13,
    style: "microdata",
    announce: "atom",
    path: (slug, _p, _s, n) => `/story/${1000 + n}-${slug}`,
    pickupMinutes: 22,
    author: "Post Reporters",
  },
  {
    id: "summit-ledger",
    publication: "Summit Ledger",
    octet: 14,
    style: "jsonld",
    announce: "news-sitemap",
    path: (slug, _p, section) => `/${section.toLowerCase()}/${slug}.html`,
    pickupMinutes: 55,
    author: "Ledger Desk",
  },
  {
    id: "prairie-tribune",
    publication: "Prairie Tribune",
    octet: 15,
    style: "meta",
    announce: "sitemap-index",
    path: (slug, p) => `/articles/${p.slice(0, 7)}/${slug}`,
    pickupMinutes: 80,
    author: "Tribune Wire Desk",
  },
  {
    id: "bayview-chronicle",
    publication: "Bayview Chronicle",
    octet: 16,
    style: "time",
    announce: "sitemap-print",
    path: (slug) => `/read/${slug}`,
    pickupMinutes: 110,
    author: "Chronicle Staff",
  },
  {
    id: "ironwood-times",
    publication: "Ironwood Times",
    octet: 17,
    style: "jsonld",
    announce: "rss",
    path: (slug, _p, section) => `/${section.toLowerCase()}/${slug}`,
    pickupMinutes: 28,
    author: "Times Correspondents",
  },
  {
    id: "meadowbrook-observer",
    publication: "Meadowbrook Observer",
    octet: 18,
    style: "meta",
    announce: "sitemap-gzip",
    path: (slug) => `/news/${slug}`,
    pickupMinutes: 170,
    author: "Observer Team",
  },
  {
    id: "cedar-valley-voice",
    publication: "Cedar Valley Voice",
    octet: 19,
    style: "microdata",
    announce: "atom",
    path: (slug, p) => `/${p.slice(0, 4)}/${slug}`,
    pickupMinutes: 65,
    author: "Voice Reporters",
  },
];
