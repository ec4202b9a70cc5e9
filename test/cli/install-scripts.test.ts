/**
 * `npm ci` runs no dependency's install script (npm 11 blocks those not named in package.json's
 * `allowScripts`, and warns about each one not named at all). The three packages with one only build a
 * native binary when no prebuilt one loads; their prebuilt binaries come as optional packages
 * (@esbuild/linux-x64, @lmdb/lmdb-linux-x64, @msgpackr-extract/...), so package.json names each as not
 * needed (`false`). These tests keep that true: a new package with an install script must be named, and
 * the three work without theirs.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { transform } from "esbuild";
import { open } from "lmdb";
import { describe, expect, it } from "vitest";

const repo = resolve(import.meta.dirname, "../..");
const readJson = (file: string) => JSON.parse(readFileSync(join(repo, file), "utf8"));

describe("install scripts", () => {
  it("names every locked package that has an install script in allowScripts", () => {
    const lock = readJson("package-lock.json") as {
      packages: Record<string, { version?: string; hasInstallScript?: boolean }>;
    };
    const allowed = Object.keys((readJson("package.json") as { allowScripts?: object }).allowScripts ?? {});
    const withScripts = Object.entries(lock.packages)
      .filter(([, p]) => p.hasInstallScript)
      .map(([path, p]) => ({ name: path.slice(path.lastIndexOf("node_modules/") + 13), version: p.version }));
    expect(withScripts.map((p) => p.name).sort()).toEqual(["esbuild", "lmdb", "msgpackr-extract"]);
    for (const p of withScripts)
      expect(
        allowed.some((a) => a === p.name || a === `${p.name}@${p.version}`),
        p.name,
      ).toBe(true);
  });

  it("runs esbuild's prebuilt binary without its postinstall", async () => {
    const out = await transform("const x: number = 1;", { loader: "ts" });
    expect(out.code).toBe("const x = 1;\n");
  });

  it("loads lmdb's and msgpackr-extract's prebuilt native addons without building them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lmdb-prebuilt-"));
    try {
      const db = open({ path: dir });
      await db.put("k", { v: 1 });
      expect(db.get("k")).toEqual({ v: 1 });
      await db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const require = createRequire(join(repo, "package.json"));
    const extract = require("msgpackr-extract") as { extractStrings?: unknown };
    expect(typeof extract.extractStrings).toBe("function");
  });
});
