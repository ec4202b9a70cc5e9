/**
 * A loopback news web whose crawl, run in three phases, makes every kind of Clusters-stream change:
 * phase 1 founds stories A, B and C (and one story syndicated by three outlets at once); phase 2
 * publishes a bridge of A and B (A retires into B: members move, outlets go); phase 3 a bridge of B
 * and C (B retires into C: the chain A→B→C). Page paths are picked so that the cluster ids sort
 * C < B < A, which decides the merge winners.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { addArticle } from "../../shared/dedup/clusterer";
import { computeFingerprint } from "../../shared/dedup/fingerprint";
import { MemoryDedupStore } from "../../shared/dedup/memory-dedup-store";
import { articleIdFor } from "../../shared/url/canonical-url";
import { article } from "../shared/dedup/texts";

type Role = "a" | "b" | "c" | "ab" | "bc" | "w0" | "w1" | "w2";

interface Page {
  readonly role: Role;
  readonly outlet: number;
  readonly headline: string;
  readonly text: string;
  readonly published: string;
  readonly phase: 1 | 2 | 3;
}

export interface MergeChainSite {
  readonly sources: { sources: Record<string, unknown>[] };
  /** Canonical URL per role: a, b, c, ab, bc, w0..w2 (the syndicated story). */
  readonly urls: Readonly<Record<Role, string>>;
  /** Lists the pages of phases up to `phase` in the outlets' sitemaps. */
  publish(phase: 1 | 2 | 3): void;
  close(): Promise<void>;
}

const OUTLETS = 4;

function html(p: Page): string {
  const ld = {
    "@context": "https://schema.org",
    "@type": "NewsArticle",
    headline: p.headline,
    datePublished: p.published,
  };
  const paragraphs = p.text
    .split("\n\n")
    .map((t) => `<p>${t}</p>`)
    .join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${p.headline}</title>
<script type="application/ld+json">${JSON.stringify(ld)}</script></head><body><main><article>
<h1>${p.headline}</h1>
${paragraphs}
</article></main></body></html>`;
}

type Texts = Record<"a" | "b" | "c" | "ab" | "bc", string>;

/** Whether, added in the phases' order, the texts merge as the chain needs (the in-memory index runs
 * the dedup Lambda's clustering code). */
async function chains(t: Texts): Promise<boolean> {
  const store = new MemoryDedupStore();
  let merges = 0;
  for (const id of ["a", "b", "c", "ab", "bc"] as const) {
    const r = await addArticle(store, {
      article_id: id,
      url: id,
      publication: id,
      source_id: id,
      headline: `Story ${id}`,
      published_at: null,
      collected_at: "2026-12-01T00:00:00.000Z",
      fingerprint: computeFingerprint(t[id], `Story ${id}`),
    });
    merges += r.merged.length;
  }
  return merges === 2 && new Set([...store.assignments()].map((x) => x.cluster_id)).size === 1;
}

async function chainTexts(): Promise<Texts> {
  for (let seed = 10; seed < 60; seed++) {
    const a = article(seed, 6);
    const b = article(seed, 6, 6);
    const c = article(seed + 100, 6);
    const t = { a, b, c, ab: `${a}\n\n${b}`, bc: `${b}\n\n${c}` };
    if (await chains(t)) return t;
  }
  throw new Error("no seed gives the merge chain");
}

export async function startMergeChainSite(): Promise<MergeChainSite> {
  const t = await chainTexts();
  const wire = article(7, 8);
  const at = (h: number) => new Date(Date.UTC(2026, 10, 30, 8 + h, 15, 0)).toISOString();
  const pages: Page[] = [
    { role: "a", outlet: 0, headline: "Story A", text: t.a, published: at(0), phase: 1 },
    { role: "b", outlet: 1, headline: "Story B", text: t.b, published: at(1), phase: 1 },
    { role: "c", outlet: 2, headline: "Story C", text: t.c, published: at(2), phase: 1 },
    { role: "ab", outlet: 3, headline: "Story AB", text: t.ab, published: at(3), phase: 2 },
    { role: "bc", outlet: 0, headline: "Story BC", text: t.bc, published: at(4), phase: 3 },
    ...[0, 1, 2].map((i) => ({
      role: `w${i}` as Role,
      outlet: i + 1,
      headline: "Wire story",
      text: i === 0 ? wire : `${wire}\n\nCopyright outlet ${i}.`,
      published: at(i),
      phase: 1 as const,
    })),
  ];
  let phase = 1;
  const paths = new Map<Role, string>();
  const servers: http.Server[] = [];
  const origins: string[] = [];
  for (let i = 0; i < OUTLETS; i++) {
    const server = http.createServer((req, res) => {
      const path = (req.url ?? "/").split("?")[0];
      const mine = pages.filter((p) => p.outlet === i && p.phase <= phase);
      if (path === "/robots.txt") {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("User-agent: *\nAllow: /\n");
        return;
      }
      if (path === "/sitemap.xml") {
        res.writeHead(200, { "content-type": "application/xml" });
        const urls = mine.map((p) => `<url><loc>${origins[i]}${paths.get(p.role)}</loc></url>`);
        res.end(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join("")}</urlset>`,
        );
        return;
      }
      const page = mine.find((p) => paths.get(p.role) === path);
      if (!page) {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("not found");
        return;
      }
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(html(page));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    servers.push(server);
    origins.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }
  // Cluster ids are c-<article id>; the smaller id wins a merge: C < B < A.
  const origin = (role: Role) => origins[pages.find((p) => p.role === role)!.outlet]!;
  paths.set("c", "/news/c");
  const idC = articleIdFor(`${origin("c")}${paths.get("c")}`);
  const above = (role: Role, floor: string) => {
    for (let n = 0; ; n++) {
      const path = `/news/${role}-${n}`;
      if (articleIdFor(`${origin(role)}${path}`) > floor) return path;
    }
  };
  paths.set("b", above("b", idC));
  paths.set("a", above("a", articleIdFor(`${origin("b")}${paths.get("b")}`)));
  for (const role of ["ab", "bc", "w0", "w1", "w2"] as const) paths.set(role, `/news/${role}`);
  const urls = Object.fromEntries(pages.map((p) => [p.role, `${origins[p.outlet]}${paths.get(p.role)}`]));
  return {
    sources: {
      sources: origins.map((o, i) => ({
        id: `outlet-${i}`,
        publication: `Outlet ${i}`,
        homepage: `${o}/`,
        feeds: [],
        sitemaps: [`${o}/sitemap.xml`],
        language: "en",
      })),
    },
    urls: urls as Record<Role, string>,
    publish: (p) => {
      phase = p;
    },
    close: async () => {
      await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
    },
  };
}
