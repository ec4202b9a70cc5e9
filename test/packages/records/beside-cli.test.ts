/**
 * A consumer's project with both of storytrail's packages: the packed records package and the command
 * line (installed from the repository, as a developer does). Each keeps its name: plain Node decodes
 * with `@storytrail/records`, and `npx storytrail` reaches the CLI.
 */
import { execFile } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { RECORD_VERSION } from "../../../shared/records";
import {
  INSERT,
  type InstalledRecords,
  installedPackages,
  installRecordsPackage,
} from "../../support/records-package";

const run = promisify(execFile);
const repo = resolve(import.meta.dirname, "../../..");

describe("@storytrail/records beside the storytrail CLI", () => {
  let pkg: InstalledRecords;

  beforeAll(async () => {
    pkg = await installRecordsPackage();
    // The CLI from the repository: npm links the folder and its bin (no copy of its dependencies).
    await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", repo], { cwd: pkg.dir });
  }, 120_000);

  it("installs both under their own names", () => {
    expect(installedPackages(pkg.dir).sort()).toEqual(["@storytrail/records", "storytrail", "zod"]);
  });

  it("decodes a stream record in plain node", async () => {
    const out = await pkg.node(
      "decode.mjs",
      `import { decodeClusterStreamRecord, RECORD_VERSION } from "@storytrail/records";
const e = decodeClusterStreamRecord(${JSON.stringify(INSERT)});
console.log(JSON.stringify({ type: e.type, story: e.cluster_id, version: RECORD_VERSION }));`,
    );
    expect(JSON.parse(out)).toEqual({ type: "story_created", story: "c-a1", version: RECORD_VERSION });
  });

  it("runs the CLI with npx storytrail", async () => {
    const { stdout } = await run("npx", ["--no", "--", "storytrail", "--help"], { cwd: pkg.dir });
    expect(stdout).toMatch(/^Usage: storytrail /);
    expect(stdout).toContain("tail");
  }, 60_000);

  it("is the size the README says (npm pack's package size, within a kB)", () => {
    const readme = readFileSync(join(repo, "README.md"), "utf8");
    const stated = Number(/`@storytrail\/records`\s+package \((\d+) kB/.exec(readme)?.[1]);
    expect(Math.abs(statSync(pkg.tarball).size / 1000 - stated)).toBeLessThanOrEqual(1);
  });
});
