/**
 * `storytrail report` in a real headless browser (Debian's chromium, which .ci/run installs): the page
 * of a real run of the demo web loads offline without console errors, its charts render, the story
 * picker switches the timeline, and the screenshot is not blank.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeReport } from "../../cli/commands/report";
import type { ReportData } from "../../shared/report/report-data";
import { crawlDemoWeb, type DemoWebCrawl, TEST_NOW } from "../support/demo-web-crawl";

const CHROMIUM = process.env.STORYTRAIL_CHROMIUM ?? "/usr/bin/chromium";

describe("storytrail report in a headless browser", () => {
  const dir = mkdtempSync(join(tmpdir(), "storytrail-report-"));
  const file = join(dir, "report.html");
  let run: DemoWebCrawl;
  let data: ReportData;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`no browser at ${CHROMIUM}: apt-get install -y chromium (or set STORYTRAIL_CHROMIUM)`);
    run = await crawlDemoWeb("report");
    ({ data } = await writeReport(run.source, file, new Date(TEST_NOW)));
    // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  });

  afterAll(async () => {
    await browser?.close();
    await run?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("loads from disk with no console errors and no request beyond the file itself", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(`file://${file}`, { waitUntil: "load" });
    expect(errors).toEqual([]);
    expect(requests).toEqual([`file://${file}`]);
    await page.close();
  });

  it("draws the top stories, the spread of each, the fastest outlets, the revised stories and the quality table", async () => {
    const page = await browser.newPage();
    await page.goto(`file://${file}`);
    const top = data.top[0]!;
    expect(top.outlet_count).toBe(10);
    expect(await page.locator("h2").allTextContents()).toEqual([
      "Top stories by outlet count",
      "How a story spread",
      "Fastest to pick up a story",
      "Most revised stories",
      "Extraction quality per publisher",
    ]);
    // The visible timeline: one dot per outlet of the top story, and its step line.
    const visible = page.locator(".timeline:not([hidden]) svg");
    await expect(visible.count()).resolves.toBe(1);
    expect(await visible.locator("circle").count()).toBe(top.outlet_count);
    expect(await visible.locator("path.step").count()).toBe(1);
    const box = await visible.boundingBox();
    expect(box?.width).toBeGreaterThan(400);
    // The fastest-outlets chart: a bar per outlet that picked up a story (the nine papers).
    expect(await page.locator("svg.chart:not(.spread) rect").count()).toBe(data.fastest.length);
    expect(data.fastest).toHaveLength(9);
    expect(await page.locator("section:last-of-type tbody tr").count()).toBe(10);
    // Picking the second story shows its timeline instead.
    const second = data.top[1]!;
    await page.selectOption("#story-pick", "t1");
    expect(await page.locator(".timeline:not([hidden])").count()).toBe(1);
    expect(await page.locator(".timeline:not([hidden]) svg circle").count()).toBe(second.outlet_count);
    await page.close();
  });

  it("renders a screenshot that is not blank", async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(`file://${file}`);
    const shot = await page.screenshot({ fullPage: true });
    writeFileSync(join(dir, "report.png"), shot);
    const png = PNG.sync.read(readFileSync(join(dir, "report.png")));
    const colours = new Set<number>();
    let nonBackground = 0;
    for (let i = 0; i < png.data.length; i += 4) {
      const [r, g, b] = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
      colours.add((r << 16) | (g << 8) | b);
      if (r + g + b < 600) nonBackground++;
    }
    // A blank or unstyled page has a handful of colours; charts, pills and anti-aliased text have hundreds.
    expect(colours.size).toBeGreaterThan(200);
    expect(nonBackground / (png.width * png.height)).toBeGreaterThan(0.01);
    expect(png.height).toBeGreaterThan(1500);
    await page.close();
  });
});
