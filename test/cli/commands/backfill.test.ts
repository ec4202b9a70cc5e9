/**
 * `storytrail backfill` as far as it runs without AWS: options, the CC-NEWS paths key, paths lists,
 * the execution inputs it would send (--dry-run), a month's list read from the local S3 emulator.
 * Starting the state machine and reading its progress need Step Functions, which has no emulator here.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { CreateBucketCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { describe, expect, inject, it } from "vitest";
import { type BackfillCliOptions, pathsSource, planInputs } from "../../../cli/commands/backfill";
import { InputError } from "../../../cli/input-error";
import { makeClients } from "../../../shared/aws/clients";
import { backfillInputs, ccNewsPathsKey } from "../../../shared/backfill/paths-list";

const repo = resolve(import.meta.dirname, "../../..");
const BASE: BackfillCliOptions = { bucket: "commoncrawl", prefix: "crawl-data/CC-NEWS/" };
const key = (i: number) =>
  `crawl-data/CC-NEWS/2024/03/CC-NEWS-20240301${String(i).padStart(6, "0")}-00${i}.warc.gz`;

describe("storytrail backfill (no AWS)", () => {
  it("names a CC-NEWS month's paths list, and refuses what is not a CC-NEWS month", () => {
    expect(pathsSource({ ...BASE, month: "2024-03" })).toEqual({
      bucket: "commoncrawl",
      key: "crawl-data/CC-NEWS/2024/03/warc.paths.gz",
    });
    expect(ccNewsPathsKey("2016-08")).toBe("crawl-data/CC-NEWS/2016/08/warc.paths.gz");
    for (const month of ["2024-3", "2024-13", "march", "2016-07"])
      expect(() => pathsSource({ ...BASE, month })).toThrow(InputError);
    expect(() => pathsSource(BASE)).toThrow(/exactly one of --month/);
    expect(() => pathsSource({ ...BASE, month: "2024-03", paths: "x" })).toThrow(/exactly one of --month/);
  });

  it("turns a paths list (gzip or plain, comments, repeats) into inputs; --limit; keys outside the prefix refused", () => {
    const list = `# March\n${key(1)}\n\n${key(2)}\r\n${key(1)}\n${key(3)}\n`;
    for (const bytes of [Buffer.from(list), gzipSync(list)])
      expect(planInputs(bytes, "list", BASE)).toEqual([
        { bucket: "commoncrawl", keys: [key(1), key(2), key(3)] },
      ]);
    expect(planInputs(Buffer.from(list), "list", { ...BASE, limit: "2" })[0]?.keys).toEqual([key(1), key(2)]);
    expect(() => planInputs(Buffer.from(list), "list", { ...BASE, limit: "0" })).toThrow(/--limit/);
    expect(() => planInputs(Buffer.from("other/x.warc.gz\n"), "list", BASE)).toThrow(/outside --prefix/);
    expect(() => planInputs(Buffer.from("s3://b/k.warc.gz\n"), "list", BASE)).toThrow(
      /list:1: expected one object key/,
    );
    expect(() => planInputs(Buffer.from("# nothing\n"), "list", BASE)).toThrow(/no object keys/);
  });

  it("splits a long list over several executions, each input under the size limit, keys in order", () => {
    const keys = Array.from({ length: 500 }, (_, i) => key(i));
    const inputs = backfillInputs("commoncrawl", keys, 4000);
    expect(inputs.length).toBeGreaterThan(5);
    for (const input of inputs) expect(Buffer.byteLength(JSON.stringify(input))).toBeLessThanOrEqual(4000);
    expect(inputs.flatMap((i) => i.keys)).toEqual(keys);
    // A real month fits one input: ~500 keys of ~65 bytes.
    expect(backfillInputs("commoncrawl", keys)).toHaveLength(1);
  });

  it("reads a month's list from S3 (the emulator here) and prints the input it would send", async () => {
    const endpoints = inject("endpoints");
    const { s3 } = makeClients(endpoints);
    try {
      await s3.send(new CreateBucketCommand({ Bucket: "commoncrawl" })).catch(() => {});
      await s3.send(
        new PutObjectCommand({
          Bucket: "commoncrawl",
          Key: "crawl-data/CC-NEWS/2019/07/warc.paths.gz",
          Body: gzipSync(
            `${key(1).replace("2024/03", "2019/07")}\n${key(2).replace("2024/03", "2019/07")}\n`,
          ),
        }),
      );
    } finally {
      s3.destroy();
    }
    const dir = mkdtempSync(join(tmpdir(), "storytrail-backfill-"));
    const cli = (args: string[]) =>
      spawnSync(process.execPath, [join(repo, "bin/storytrail.js"), "backfill", ...args], {
        cwd: dir,
        encoding: "utf8",
        timeout: 60_000,
        env: {
          ...process.env,
          AWS_ACCESS_KEY_ID: "local",
          AWS_SECRET_ACCESS_KEY: "local",
          STORYTRAIL_BACKFILL_STATE_MACHINE: "",
        },
      });
    const dry = cli(["--month", "2019-07", "--dry-run", "--s3-endpoint", endpoints.s3]);
    expect(dry.stderr).toContain(
      "s3://commoncrawl/crawl-data/CC-NEWS/2019/07/warc.paths.gz: 2 WARC files in 1 run(s)",
    );
    expect(
      dry.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual([
      {
        bucket: "commoncrawl",
        keys: [key(1).replace("2024/03", "2019/07"), key(2).replace("2024/03", "2019/07")],
      },
    ]);
    expect(dry.status).toBe(0);
    writeFileSync(join(dir, "paths.txt"), `${key(1)}\n`);
    // Without a state machine to start, a clear error and exit code 2 (nothing is sent anywhere).
    const bare = cli(["--paths", "paths.txt"]);
    expect(bare.status).toBe(2);
    expect(bare.stderr).toContain("--state-machine ARN");
  });
});
