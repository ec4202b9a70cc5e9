import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readSourcesFile, scheduleContext } from "../../infra/schedule-context";
import type { Source } from "../../shared/discover/sources";

const source = (id: string, extra: Partial<Source> = {}): Source => ({
  id,
  publication: `Publication ${id}`,
  homepage: `https://${id}.example/`,
  feeds: [],
  sitemaps: [`https://${id}.example/sitemap.xml`],
  ...extra,
});

describe("readSourcesFile", () => {
  const write = (text: string) => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "storytrail-")), "my-sources.json");
    writeFileSync(file, text);
    return file;
  };

  it("refuses a missing file, naming it", () => {
    expect(() => readSourcesFile(path.join(tmpdir(), "storytrail-no-such-file.json"))).toThrow(
      /storytrail-no-such-file\.json/,
    );
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
    [
      "a cron the dispatcher cannot read",
      JSON.stringify({ sources: [source("a", { schedule: "cron(0 5 L * ? *)" })] }),
    ],
    ["an unknown field", JSON.stringify({ sources: [{ ...source("a"), source_id: "a" }] })],
  ])("rejects %s, naming the file", (_label, text) => {
    expect(() => readSourcesFile(write(text))).toThrow(/my-sources\.json/);
  });
});

describe("scheduleContext", () => {
  const root = mkdtempSync(path.join(tmpdir(), "storytrail-root-"));
  writeFileSync(path.join(root, "mine.json"), JSON.stringify({ sources: [source("mine"), source("yours")] }));
  writeFileSync(
    path.join(root, "bad.json"),
    JSON.stringify({ sources: [source("a", { schedule: "daily" })] }),
  );
  const from = (values: Record<string, unknown>) => (key: string) => values[key];

  it("reads <fn>Schedule overrides for the scheduled functions only, and the default source cadence", () => {
    const ctx = scheduleContext(
      from({
        discoverSchedule: " cron(0 3 * * ? *) ",
        qualitySchedule: "cron(1 1 * * ? *)",
        fetchSchedule: "x",
      }),
      ["dispatch", "quality"],
      root,
    );
    expect(ctx.schedules).toEqual({ quality: "cron(1 1 * * ? *)" });
    expect(ctx.defaultSourceSchedule).toBe("cron(0 3 * * ? *)");
  });

  it("validates -c sources=FILE but deploys nothing of it: the warning names `storytrail sources push`", () => {
    expect(scheduleContext(from({}), [], root).sourcesWarning).toBeUndefined();
    const { sourcesWarning } = scheduleContext(from({ sources: "mine.json" }), [], root);
    expect(sourcesWarning).toContain("2 sources");
    expect(sourcesWarning).toContain("storytrail sources push mine.json --stack");
    expect(() => scheduleContext(from({ sources: "bad.json" }), [], root)).toThrow(/bad\.json.*schedule/);
    expect(() => scheduleContext(from({ sources: "nope.json" }), [], root)).toThrow(/nope\.json/);
  });

  it("refuses a default source cadence that is not one", () => {
    expect(() => scheduleContext(from({ discoverSchedule: 7 }), [], root)).toThrow(/discoverSchedule/);
    expect(() => scheduleContext(from({ discoverSchedule: "daily" }), [], root)).toThrow(/discoverSchedule/);
  });
});
