/**
 * The demo web's history in a run's folder: the first day a demo crawled into it. The web then serves
 * every day from that one to the run's (news-web.ts), so runs on consecutive days into one folder meet
 * one site that grows day by day, while a fresh folder starts with one day's stories (a first crawl
 * stays small and its stories are the day's alone).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const HISTORY_FILE = "demo-web.json";

/** A history file that is not one (the message names it and the fix). */
export class DemoWebHistoryError extends Error {
  constructor(file: string) {
    super(
      `${file} is not the demo web's history ({"first_day": "YYYY-MM-DD"}): remove it, and the demo web starts again from this run's day`,
    );
    this.name = "DemoWebHistoryError";
  }
}

/** The folder's first day, made `day`'s when the folder has none or a later one (an earlier `--at`). */
export function demoWebFirstDay(dataDir: string, day: string): string {
  const file = join(dataDir, HISTORY_FILE);
  let stored: string | undefined;
  if (existsSync(file)) {
    try {
      stored = (JSON.parse(readFileSync(file, "utf8")) as { first_day?: unknown }).first_day as string;
    } catch {
      throw new DemoWebHistoryError(file);
    }
    if (typeof stored !== "string" || !/^\d{4}-\d\d-\d\d$/.test(stored)) throw new DemoWebHistoryError(file);
  }
  if (stored !== undefined && stored <= day) return stored;
  writeFileSync(file, `${JSON.stringify({ first_day: day })}\n`);
  return day;
}
