import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runInNewContext } from "node:vm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { extractionWorkerScript } from "../../../shared/backfill/worker-bundle";

/** What a bundle's entry exports, run as a Worker would run it (a CommonJS script). */
function exported(script: string): unknown {
  const module = { exports: {} as Record<string, unknown> };
  runInNewContext(script, { module, exports: module.exports });
  return module.exports.answer;
}

describe("extractionWorkerScript's cache", () => {
  let root: string;
  let cacheDir: string;
  let entry: string;
  const dep = () => path.join(root, "src/answer.ts");
  /** A source written a second in the past: the cache takes no input written since its build began. */
  const write = (file: string, text: string) => {
    writeFileSync(file, text);
    const past = new Date(Date.now() - 1000);
    utimesSync(file, past, past);
  };

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), "storytrail-bundle-"));
    cacheDir = path.join(root, "cache");
    entry = path.join(root, "src/entry.ts");
    mkdirSync(path.join(root, "src"));
    write(entry, 'export { answer } from "./answer";\n');
    write(dep(), "export const answer: number = 41;\n");
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it("keeps the bundle with its inputs' hashes and returns it again while they are unchanged", async () => {
    const first = await extractionWorkerScript(entry, { root, cacheDir });
    expect(exported(first)).toBe(41);
    const file = path.join(cacheDir, "entry.bundle.json");
    const cached = JSON.parse(readFileSync(file, "utf8"));
    expect(Object.keys(cached.inputs).sort()).toEqual(["src/answer.ts", "src/entry.ts"]);
    // Served from the cache, not built again: a bundle marked in the cache comes back as it is.
    writeFileSync(file, JSON.stringify({ ...cached, code: `${cached.code}\n// from the cache` }));
    const second = await extractionWorkerScript(entry, { root, cacheDir });
    expect(second).toBe(`${first}\n// from the cache`);
  });

  it("builds again when a source it was built from changed", async () => {
    await extractionWorkerScript(entry, { root, cacheDir });
    write(dep(), "export const answer: number = 42;\n");
    expect(exported(await extractionWorkerScript(entry, { root, cacheDir }))).toBe(42);
    // And the rebuilt bundle is what the cache holds now.
    const cached = JSON.parse(readFileSync(path.join(cacheDir, "entry.bundle.json"), "utf8"));
    expect(exported(cached.code)).toBe(42);
  });

  it("does not keep a bundle built from a source written since the build began (it may hold older text)", async () => {
    writeFileSync(dep(), "export const answer: number = 43;\n");
    const later = new Date(Date.now() + 60_000);
    utimesSync(dep(), later, later);
    expect(exported(await extractionWorkerScript(entry, { root, cacheDir }))).toBe(43);
    expect(existsSync(path.join(cacheDir, "entry.bundle.json"))).toBe(false);
  });

  it("builds without a cache where none can be written, and passes over a damaged one", async () => {
    // A cache "directory" that is a file cannot be created, even by root (who may write read-only ones).
    const file = path.join(root, "not-a-dir");
    writeFileSync(file, "");
    expect(exported(await extractionWorkerScript(entry, { root, cacheDir: file }))).toBe(41);
    mkdirSync(cacheDir);
    writeFileSync(path.join(cacheDir, "entry.bundle.json"), "{ not json");
    expect(exported(await extractionWorkerScript(entry, { root, cacheDir }))).toBe(41);
  });
});
