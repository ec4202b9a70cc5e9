/** The demo web's history in a run folder: the first day is kept, an earlier run moves it back, and a
 * damaged file is an error naming it and the fix. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { DemoWebHistoryError, demoWebFirstDay } from "../../../../infra/local/demo-web/web-history";

const dirs: string[] = [];
const folder = () => {
  const d = mkdtempSync(join(tmpdir(), "storytrail-web-history-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

it("keeps the folder's first day over later runs, and moves it back for an earlier one", () => {
  const dir = folder();
  expect(demoWebFirstDay(dir, "2026-12-02")).toBe("2026-12-02");
  expect(demoWebFirstDay(dir, "2026-12-05")).toBe("2026-12-02");
  expect(demoWebFirstDay(dir, "2026-11-30")).toBe("2026-11-30");
  expect(JSON.parse(readFileSync(join(dir, "demo-web.json"), "utf8"))).toEqual({ first_day: "2026-11-30" });
});

it("refuses a damaged history, naming the file and what to do", () => {
  for (const body of ["{not json", '{"first_day": 20261202}', "{}"]) {
    const dir = folder();
    writeFileSync(join(dir, "demo-web.json"), body);
    expect(() => demoWebFirstDay(dir, "2026-12-02")).toThrow(DemoWebHistoryError);
    expect(() => demoWebFirstDay(dir, "2026-12-02")).toThrow(
      /demo-web\.json is not the demo web's history.*remove it/,
    );
    expect(readFileSync(join(dir, "demo-web.json"), "utf8")).toBe(body);
  }
});
