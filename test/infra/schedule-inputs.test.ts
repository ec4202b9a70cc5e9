import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  MAX_SCHEDULE_INPUT_BYTES,
  readSourcesFile,
  scheduleContext,
  scheduleInputs,
} from "../../infra/schedule-inputs";
import type { Source } from "../../shared/discover/sources";

const DAILY = "cron(0 5 * * ? *)";
const source = (id: string, extra: Partial<Source> = {}): Source => ({
  id,
  publication: `Publication ${id}`,
  homepage: `https://${id}.example/`,
  feeds: [],
  sitemaps: [`https://${id}.example/sitemap.xml`],
  ...extra,
});
const size = (v: unknown) => Buffer.byteLength(JSON.stringify(v), "utf8");

describe("readSourcesFile", () => {
  const write = (text: string) => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "storytrail-")), "my-sources.json");
    writeFileSync(file, text);
    return file;
  };

  it("treats a missing file as no sources", () => {
    expect(readSourcesFile(path.join(tmpdir(), "storytrail-no-such-file.json"))).toEqual([]);
  });

  it("parses an existing file, as the discover function parses its input", () => {
    const file = write(JSON.stringify({ sources: [source("a"), source("b", { schedule: "rate(1 hour)" })] }));
    expect(readSourcesFile(file)).toEqual([source("a"), source("b", { schedule: "rate(1 hour)" })]);
  });

  it.each([
    ["not json", "{"],
    ["no sources array", JSON.stringify({ feeds: [] })],
    ["a source that is not an object", JSON.stringify({ sources: ["x"] })],
    ["a non-string schedule", JSON.stringify({ sources: [source("a", { schedule: 5 as never })] })],
    ["an invalid schedule", JSON.stringify({ sources: [source("a", { schedule: "daily" })] })],
    ["an unknown field", JSON.stringify({ sources: [{ ...source("a"), source_id: "a" }] })],
  ])("rejects %s, naming the file", (_label, text) => {
    expect(() => readSourcesFile(write(text))).toThrow(/my-sources\.json/);
  });
});

describe("scheduleInputs", () => {
  it("gives one empty input on the default cron when there are no sources", () => {
    expect(scheduleInputs([], DAILY)).toEqual([{ cron: DAILY, chunk: 0, input: { sources: [] } }]);
  });

  it("groups sources by their own schedule, the rest on the default cron", () => {
    const hourly = "cron(0 * * * ? *)";
    const inputs = scheduleInputs([source("a"), source("b", { schedule: hourly }), source("c")], DAILY);
    const byCron = Object.fromEntries(inputs.map((i) => [i.cron, i.input.sources.map((s) => s.id)]));
    expect(byCron).toEqual({ [DAILY]: ["a", "c"], [hourly]: ["b"] });
  });

  it("splits a large group into inputs under the limit, losing nothing and keeping order", () => {
    const sources = Array.from({ length: 300 }, (_, i) =>
      source(`source-${i}`, { publication: `P${"x".repeat(i % 97)}` }),
    );
    const inputs = scheduleInputs(sources, DAILY);
    expect(inputs.length).toBeGreaterThan(1);
    for (const { input } of inputs) expect(size(input)).toBeLessThanOrEqual(MAX_SCHEDULE_INPUT_BYTES);
    expect(inputs.flatMap((i) => i.input.sources)).toEqual(sources);
    expect(inputs.map((i) => i.chunk)).toEqual(inputs.map((_, i) => i));
  });

  it("counts bytes, not characters (multi-byte publication names)", () => {
    const sources = Array.from({ length: 100 }, (_, i) =>
      source(`s${i}`, { publication: "日本経済新聞".repeat(10) }),
    );
    for (const { input } of scheduleInputs(sources, DAILY, 2000))
      expect(size(input)).toBeLessThanOrEqual(2000);
  });

  it("packs exactly up to the limit", () => {
    const one = source("a");
    const exact = size({ sources: [one, one] });
    expect(scheduleInputs([one, one], DAILY, exact)).toHaveLength(1);
    expect(scheduleInputs([one, one], DAILY, exact - 1)).toHaveLength(2);
  });

  it("rejects a single source that cannot fit any input", () => {
    expect(() => scheduleInputs([source("huge", { publication: "x".repeat(9000) })], DAILY)).toThrow(/huge/);
  });
});

describe("scheduleContext", () => {
  const root = mkdtempSync(path.join(tmpdir(), "storytrail-root-"));
  writeFileSync(path.join(root, "sources.example.json"), JSON.stringify({ sources: [source("example")] }));
  writeFileSync(path.join(root, "mine.json"), JSON.stringify({ sources: [source("mine")] }));
  const from = (values: Record<string, unknown>) => (key: string) => values[key];

  it("reads <fn>Schedule overrides for the scheduled functions only", () => {
    const ctx = scheduleContext(
      from({ discoverSchedule: " cron(0 3 * * ? *) ", fetchSchedule: "cron(1 1 * * ? *)" }),
      ["discover", "quality"],
      root,
    );
    expect(ctx.schedules).toEqual({ discover: "cron(0 3 * * ? *)" });
  });

  it("defaults to sources.example.json at the project root, or takes -c sources=FILE", () => {
    expect(scheduleContext(from({}), [], root).sources.map((s) => s.id)).toEqual(["example"]);
    expect(scheduleContext(from({ sources: "mine.json" }), [], root).sources.map((s) => s.id)).toEqual([
      "mine",
    ]);
  });

  it("has no sources when the default file is absent, but refuses a missing explicit file", () => {
    const empty = mkdtempSync(path.join(tmpdir(), "storytrail-empty-"));
    expect(scheduleContext(from({}), [], empty).sources).toEqual([]);
    expect(() => scheduleContext(from({ sources: "nope.json" }), [], empty)).toThrow(/nope\.json/);
    expect(() => scheduleContext(from({ discoverSchedule: 7 }), ["discover"], empty)).toThrow(
      /discoverSchedule/,
    );
  });
});
