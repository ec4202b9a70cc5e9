/**
 * The template does not grow with the source count: a synth through the app's own context handling
 * (infra/schedule-context.ts, as `cdk synth -c sources=FILE` runs it) with 10 and with 100,000 sources
 * gives the same resources and stays far under CloudFormation's 1 MB (the bound: 500 KB).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { App } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { describe, expect, it } from "vitest";
import { scheduleContext } from "../../infra/schedule-context";
import { StorytrailStack } from "../../infra/stack";
import { functionNames, topology } from "../../infra/topology";

const repoRoot = path.resolve(import.meta.dirname, "../..");
const dir = mkdtempSync(path.join(tmpdir(), "storytrail-scale-"));

/** Ordinary sources: one sitemap and one feed each, a few on their own cadence. */
function sourcesFile(count: number): string {
  const sources = Array.from({ length: count }, (_, i) => ({
    id: `source-${i}`,
    publication: `Publication number ${i}`,
    homepage: `https://news-${i}.example/`,
    sitemaps: [`https://news-${i}.example/news-sitemap.xml`],
    feeds: [`https://news-${i}.example/rss`],
    ...(i % 10 === 0 ? { schedule: i % 20 === 0 ? "rate(1 hour)" : "cron(0 */2 * * ? *)" } : {}),
  }));
  const file = path.join(dir, `sources-${count}.json`);
  writeFileSync(file, JSON.stringify({ sources }));
  return file;
}

function synth(count: number) {
  const file = sourcesFile(count);
  // No asset bundling: the handlers' code is not what this measures (stack.test.ts bundles them).
  const app = new App({ context: { sources: file, "aws:cdk:bundling-stacks": [] }, outdir: dir });
  const scheduled = functionNames.filter((fn) => topology.functions[fn].trigger.kind === "schedule");
  const ctx = scheduleContext((key) => app.node.tryGetContext(key), scheduled, repoRoot);
  const stack = new StorytrailStack(app, "Storytrail", { projectRoot: repoRoot, schedules: ctx.schedules });
  const json = Template.fromStack(stack).toJSON() as { Resources: Record<string, { Type: string }> };
  const types = Object.values(json.Resources).map((r) => r.Type);
  return { warning: ctx.sourcesWarning, types, bytes: Buffer.byteLength(JSON.stringify(json)) };
}

describe("the template at 10 and at 100,000 sources", () => {
  it("has the same resources, one dispatcher schedule, and stays under 500 KB", () => {
    const small = synth(10);
    const large = synth(100_000);
    expect(large.types.length).toBe(small.types.length);
    expect([...large.types].sort()).toEqual([...small.types].sort());
    expect(large.types.filter((t) => t === "AWS::Scheduler::Schedule")).toHaveLength(3); // dispatch tick, quality, archive
    expect(large.bytes).toBe(small.bytes);
    expect(large.bytes).toBeLessThan(500_000);
    // The file was read and validated, and the synth says what to run instead of deploying it.
    expect(large.warning).toContain("100000 sources");
    expect(large.warning).toContain("storytrail sources push");
    console.log(
      `template: ${small.types.length} resources, ${small.bytes} bytes at 10 sources; ${large.types.length}, ${large.bytes} at 100,000`,
    );
  }, 120_000);
});
