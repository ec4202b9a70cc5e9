/**
 * The records package as a consumer gets it: built, packed with `npm pack`, and installed with zod in
 * a scratch directory of its own (no TypeScript loader, none of the repo's node_modules).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { buildRecordsPackage } from "../../packages/records/build";

const run = promisify(execFile);

export interface InstalledRecords {
  /** The scratch project: package.json (type module) and node_modules with @storytrail/records and zod. */
  readonly dir: string;
  readonly tarball: string;
  /** Runs `node FILE` in the scratch directory; returns stdout. */
  node(file: string, source: string): Promise<string>;
}

export async function installRecordsPackage(): Promise<InstalledRecords> {
  // Built in a folder of its own: several test files install the package at once.
  const staged = await buildRecordsPackage({ stageIn: mkdtempSync(join(tmpdir(), "storytrail-records-")) });
  const dir = mkdtempSync(join(tmpdir(), "storytrail-consumer-"));
  const packed = await run("npm", ["pack", staged, "--pack-destination", dir, "--silent"], { cwd: dir });
  const tarball = join(dir, packed.stdout.trim().split("\n").pop()!);
  const zodVersion = createRequire(import.meta.url)("zod/package.json").version as string;
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module" }),
  );
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball, `zod@${zodVersion}`], {
    cwd: dir,
  });
  return {
    dir,
    tarball,
    node: async (file, source) => {
      writeFileSync(join(dir, file), source);
      const out = await run(process.execPath, [file], { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
      return out.stdout;
    },
  };
}

/** Packages in a scratch directory's node_modules (scoped ones counted one by one). */
export function installedPackages(dir: string): string[] {
  const nm = join(dir, "node_modules");
  return readdirSync(nm)
    .filter((n) => !n.startsWith("."))
    .flatMap((n) => (n.startsWith("@") ? readdirSync(join(nm, n)).map((s) => `${n}/${s}`) : [n]));
}

/** A summary INSERT as Lambda delivers it (DynamoDB JSON, no OldImage). */
export const INSERT = {
  eventID: "1",
  eventName: "INSERT",
  dynamodb: {
    Keys: { cluster_id: { S: "c-a1" }, item: { S: "summary" } },
    NewImage: {
      record_version: { N: "2" },
      record_type: { S: "summary" },
      cluster_id: { S: "c-a1" },
      item: { S: "summary" },
      canonical_article_id: { S: "a1" },
      canonical_url: { S: "https://harbor.example/world/port-strike-ends" },
      headline: { S: "Dock workers end nine-day port strike" },
      publication: { S: "Harbor Daily" },
      source_id: { S: "harbor-daily" },
      first_published_at: { S: "2026-11-30T14:05:00.000Z" },
      last_published_at: { S: "2026-11-30T14:05:00.000Z" },
      article_count: { N: "1" },
      outlet_count: { N: "1" },
      seconds_to_10_outlets: { NULL: true },
      revision: { N: "1" },
      updated_at: { S: "2026-11-30T14:06:02.118Z" },
      merged_into: { NULL: true },
    },
    SequenceNumber: "100",
  },
};
