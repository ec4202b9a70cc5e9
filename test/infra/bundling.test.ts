/**
 * What is deployed works: the four Lambdas bundled with the stack's own esbuild settings
 * (infra/bundling.ts) crawl the demo site end to end on the local emulators, each under 1 MiB.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { esbuildOptions } from "../../infra/bundling";
import { type DemoSite, startDemoSite } from "../../infra/local/demo-site";
import { type LocalHandler, LocalRuntime } from "../../infra/local/runtime";
import { type FunctionName, topology } from "../../infra/topology";
import { uniquePrefix } from "../support/unique-prefix";

const ROOT = path.resolve(import.meta.dirname, "../..");
const functions = Object.keys(topology.functions) as FunctionName[];

describe("bundled Lambdas", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "storytrail-bundles-"));
  const files = {} as Record<FunctionName, string>;
  const staticExternals = {} as Record<FunctionName, string[]>;
  const savedEnv = { ...process.env };
  let site: DemoSite;
  let runtime: LocalRuntime;

  beforeAll(async () => {
    for (const fn of functions) {
      files[fn] = path.join(dir, fn, "index.mjs");
      const out = await build({
        ...esbuildOptions(path.join(ROOT, topology.functions[fn].entry), files[fn]),
        metafile: true,
      });
      staticExternals[fn] = Object.values(out.metafile.inputs).flatMap((i) =>
        i.imports.filter((x) => x.external && x.kind === "import-statement").map((x) => x.path),
      );
    }
    site = await startDemoSite();
    const handlers = {} as Record<FunctionName, LocalHandler>;
    runtime = await LocalRuntime.start({
      endpoints: inject("endpoints"),
      prefix: uniquePrefix("bundled"),
      settings: {
        STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true",
        STORYTRAIL_MIN_HOST_DELAY_MS: "0",
        STORYTRAIL_RAW_SAMPLE_RATE: "1",
      },
      instrument: (fn) => handlers[fn],
    });
    // A bundle's `handler` reads process.env, as in Lambda: give it every function's environment.
    for (const fn of functions) Object.assign(process.env, runtime.env(fn));
    for (const fn of functions) {
      const mod = (await import(pathToFileURL(files[fn]).href)) as { handler: LocalHandler };
      handlers[fn] = mod.handler;
    }
  });

  afterAll(async () => {
    await runtime?.close();
    await site?.close();
    process.env = savedEnv;
    rmSync(dir, { recursive: true, force: true });
  });

  it("are each under 1 MiB", () => {
    for (const fn of functions) expect(statSync(files[fn]).size, fn).toBeLessThan(1024 * 1024);
  });

  it("load nothing from the runtime at start: external SDK packages are only imported on demand", () => {
    for (const fn of functions) {
      expect(
        staticExternals[fn]?.filter((p) => p.startsWith("@aws-sdk/") || p.startsWith("@smithy/")),
        fn,
      ).toEqual([]);
    }
  });

  it("crawl the demo site end to end: every URL accounted for, the syndicated story clustered", async () => {
    await runtime.discover({ sources: site.sources, run_id: "bundled-1" });
    await runtime.drain();
    const counts = await runtime.runCounts("bundled-1");
    expect(counts).toMatchObject({
      claimed: 6,
      articles: 5,
      failed: 1,
      pending: 0,
      failure_reasons: { robots_disallowed: 1 },
      dead_lettered: { fetch: 0, dedup: 0 },
      clusters: 2,
    });
    // fetch keeps raw samples through the S3 client it loads on first use (external to the bundle).
    expect((await runtime.items("articles")).every((a) => typeof a.raw_key === "string")).toBe(true);
  });
});
