import { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { registerUrl } from "../../../cli/commands/url";

async function run(...args: string[]): Promise<{ out: string; err: string; code: number | undefined }> {
  let out = "";
  let err = "";
  const o = vi.spyOn(process.stdout, "write").mockImplementation((s) => {
    out += String(s);
    return true;
  });
  const e = vi.spyOn(process.stderr, "write").mockImplementation((s) => {
    err += String(s);
    return true;
  });
  process.exitCode = undefined;
  try {
    const program = new Command().exitOverride();
    registerUrl(program);
    await program.parseAsync(["node", "storytrail", "url", ...args]);
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
  const code = process.exitCode as number | undefined;
  process.exitCode = undefined;
  return { out, err, code };
}

describe("storytrail url", () => {
  afterEach(() => {
    process.exitCode = undefined;
  });

  it("prints one canonical URL per line", async () => {
    const r = await run(
      "https://www.Example-News.com/business/rates-hold/amp/?utm_source=x&id=5&fbclid=abc",
      "HTTP://Example.com:80/a/#x",
    );
    expect(r.out).toBe("https://example-news.com/business/rates-hold?id=5\nhttp://example.com/a\n");
    expect(r.code).toBeUndefined();
  });

  it("applies --canonical when it stays on the same site", async () => {
    const same = await run("https://www.example.com/story-1?utm_medium=x", "--canonical", "/story");
    expect(same.out).toBe("https://example.com/story\n");
    const other = await run("https://www.example.com/story-1", "--canonical", "https://elsewhere.net/story");
    expect(other.out).toBe("https://example.com/story-1\n");
    const partner = await run(
      "https://www.example.com/story-1",
      "--canonical",
      "https://elsewhere.net/story",
      "--partner",
      "elsewhere.net",
    );
    expect(partner.out).toBe("https://elsewhere.net/story\n");
  });

  it("reports invalid URLs on stderr and exits 1, still printing the valid ones", async () => {
    const r = await run("ftp://example.com/x", "https://example.com/ok/");
    expect(r.out).toBe("https://example.com/ok\n");
    expect(r.err).toContain("ftp");
    expect(r.code).toBe(1);
  });
});
