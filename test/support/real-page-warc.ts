/**
 * A WARC of real news pages (the fundus parser tests in ../shared/eval) with syndicated copies: each
 * copied page appears again, whole, on another outlet's URL, so dedup has stories of two and of one.
 * Written with warcio's writer, one gzip member per record (as CC-NEWS is).
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { type WarcRecordSpec, writeWarc } from "./warc-files";

const FUNDUS = resolve(import.meta.dirname, "../../../shared/eval/fundus-parser-tests");

export interface RealPageWarc {
  readonly warc: Buffer;
  /** The original pages' URLs, in file order. */
  readonly urls: readonly string[];
  /** How many copies the file holds. */
  readonly copies: number;
}

export async function realPageWarc(
  pages: number,
  copyEvery: number,
  archivedAt: string,
): Promise<RealPageWarc> {
  const truth = JSON.parse(readFileSync(join(FUNDUS, "ground-truth.json"), "utf8")) as Record<
    string,
    { url: string; file: string }
  >;
  const chosen = Object.values(truth).slice(0, pages);
  const specs: WarcRecordSpec[] = [{ type: "warcinfo" }];
  let copies = 0;
  for (const [i, t] of chosen.entries()) {
    const html = gunzipSync(readFileSync(join(FUNDUS, t.file))).toString("utf8");
    specs.push({ type: "request", url: t.url, date: archivedAt });
    specs.push({ type: "response", url: t.url, date: archivedAt, body: html });
    if (i % copyEvery === 0) {
      copies++;
      specs.push({
        type: "response",
        url: `https://syndication-partner.example/wire/${i}`,
        date: archivedAt,
        body: html,
      });
    }
  }
  return { warc: await writeWarc(specs, "record-gzip"), urls: chosen.map((t) => t.url), copies };
}
