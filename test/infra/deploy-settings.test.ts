import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_BACKFILL } from "../../infra/backfill-settings";
import { DEFAULT_DATASET } from "../../infra/dataset-settings";
import { DEPLOYABLE_SETTINGS, deploySettings, settingsContext } from "../../infra/deploy-settings";

const AGENT = "examplebot/1.0 (+https://ops.example/crawler)";

describe("deploySettings", () => {
  it("turns a settings object into environment strings, with no warning when the crawler names a contact", () => {
    const s = deploySettings({
      STORYTRAIL_USER_AGENT: AGENT,
      STORYTRAIL_MIN_HOST_DELAY_MS: 2000,
      STORYTRAIL_RAW_SAMPLE_RATE: "0.25",
      STORYTRAIL_CANONICAL_PARTNERS: "wire.example,partner.example",
      alarm_emails: ["oncall@ops.example"],
    });
    expect(s.env).toEqual({
      STORYTRAIL_USER_AGENT: AGENT,
      STORYTRAIL_MIN_HOST_DELAY_MS: "2000",
      STORYTRAIL_RAW_SAMPLE_RATE: "0.25",
      STORYTRAIL_CANONICAL_PARTNERS: "wire.example,partner.example",
    });
    expect(s.warnings).toEqual([]);
  });

  it("warns when the default User-Agent would crawl, or one without a contact", () => {
    const reached = { alarm_emails: ["oncall@example.org"] };
    expect(deploySettings(reached).warnings).toEqual([expect.stringContaining("set STORYTRAIL_USER_AGENT")]);
    expect(deploySettings({ ...reached, STORYTRAIL_USER_AGENT: "mybot/1.0" }).warnings).toEqual([
      expect.stringContaining("gives no contact"),
    ]);
    expect(
      deploySettings({ ...reached, STORYTRAIL_USER_AGENT: "mybot/1.0 (ops@example.org)" }).warnings,
    ).toEqual([]);
  });

  it("refuses what a deployment must never have, and what the crawl could not read", () => {
    expect(() => deploySettings({ STORYTRAIL_ALLOW_PRIVATE_ADDRESSES: "true" })).toThrow(
      /for local runs against test sites, never for a deployment/,
    );
    expect(() => deploySettings({ STORYTRAIL_NOW: "2031-01-01T00:00:00Z" })).toThrow(
      /STORYTRAIL_NOW is for local runs against test sites, never for a deployment/,
    );
    expect(() => deploySettings({ STORYTRAIL_HOST_DELAY: 5 })).toThrow(
      /unknown setting STORYTRAIL_HOST_DELAY/,
    );
    expect(() => deploySettings({ STORYTRAIL_RAW_SAMPLE_RATE: 2 })).toThrow(/STORYTRAIL_RAW_SAMPLE_RATE/);
    expect(() => deploySettings({ STORYTRAIL_MIN_HOST_DELAY_MS: "soon" })).toThrow(
      /STORYTRAIL_MIN_HOST_DELAY_MS/,
    );
    expect(() => deploySettings({ STORYTRAIL_USER_AGENT: ["a"] })).toThrow(/must be a string or a number/);
    expect(() => deploySettings(["STORYTRAIL_USER_AGENT"])).toThrow(/expected an object/);
    expect(DEPLOYABLE_SETTINGS).toContain("STORYTRAIL_LSH_RETENTION_DAYS");
    expect(DEPLOYABLE_SETTINGS).not.toContain("STORYTRAIL_ALLOW_PRIVATE_ADDRESSES");
  });
});

describe("deploySettings: the deployment's own options", () => {
  it("reads alarm subscribers and tracing, and keeps them out of the functions' environment", () => {
    const s = deploySettings({
      STORYTRAIL_USER_AGENT: AGENT,
      alarm_emails: ["oncall@ops.example"],
      alarm_https_endpoints: ["https://events.pagerduty.example/integration/x/enqueue"],
      tracing: true,
    });
    expect(s.ops).toEqual({
      alarm_emails: ["oncall@ops.example"],
      alarm_https_endpoints: ["https://events.pagerduty.example/integration/x/enqueue"],
      tracing: true,
      backfill: DEFAULT_BACKFILL,
      dataset: DEFAULT_DATASET,
    });
    expect(Object.keys(s.env)).toEqual(["STORYTRAIL_USER_AGENT"]);
    expect(s.warnings).toEqual([]);
  });

  it("defaults to no subscriber (with a warning) and tracing off", () => {
    const s = deploySettings({ STORYTRAIL_USER_AGENT: AGENT });
    expect(s.ops).toEqual({
      alarm_emails: [],
      alarm_https_endpoints: [],
      tracing: false,
      backfill: DEFAULT_BACKFILL,
      dataset: DEFAULT_DATASET,
    });
    expect(s.warnings).toEqual([expect.stringContaining("no alarm subscriber")]);
  });

  it("refuses a malformed address, a plain-HTTP endpoint and a non-boolean tracing", () => {
    expect(() => deploySettings({ alarm_emails: ["not-an-address"] })).toThrow(/alarm_emails/);
    expect(() => deploySettings({ alarm_https_endpoints: ["http://hooks.example/x"] })).toThrow(
      /alarm_https_endpoints/,
    );
    expect(() => deploySettings({ tracing: "yes" })).toThrow(/tracing/);
  });
});

describe("settings.example.json", () => {
  it("is a valid deployment's settings, with a contact in its User-Agent", () => {
    const file = path.resolve(import.meta.dirname, "../..", "settings.example.json");
    const s = deploySettings(JSON.parse(readFileSync(file, "utf8")), file);
    expect(Object.keys(s.env).sort()).toEqual([...DEPLOYABLE_SETTINGS].sort());
    expect(s.warnings).toEqual([]);
  });
});

describe("settingsContext", () => {
  it("reads -c settings=FILE relative to the project root, and defaults without it", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "storytrail-settings-"));
    try {
      writeFileSync(path.join(dir, "ops.json"), JSON.stringify({ STORYTRAIL_USER_AGENT: AGENT }));
      writeFileSync(path.join(dir, "broken.json"), "{ nope");
      const ctx = (value: unknown) => (key: string) => (key === "settings" ? value : undefined);
      expect(settingsContext(ctx("ops.json"), dir).env).toEqual({ STORYTRAIL_USER_AGENT: AGENT });
      expect(settingsContext(ctx(undefined), dir)).toMatchObject({
        env: {},
        warnings: [expect.stringContaining("User-Agent"), expect.stringContaining("no alarm subscriber")],
      });
      expect(() => settingsContext(ctx("missing.json"), dir)).toThrow(/no such file/);
      expect(() => settingsContext(ctx("broken.json"), dir)).toThrow(/not valid JSON/);
      expect(() => settingsContext(ctx(""), dir)).toThrow(/path of a JSON file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
