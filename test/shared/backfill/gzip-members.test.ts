import { randomBytes } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { GzipCutShort, GzipMembers } from "../../../shared/backfill/gzip-members";

async function* chunks(buf: Buffer, size = 700): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

async function inflate(m: GzipMembers): Promise<Buffer> {
  const out: Uint8Array[] = [];
  for await (const c of m.plain()) out.push(c);
  return Buffer.concat(out);
}

// Members of different sizes, one incompressible (it spans many source chunks), one with a file name.
const texts = [
  Buffer.from("first member ".repeat(50)),
  randomBytes(200_000),
  Buffer.from("third"),
  Buffer.from("fourth member ".repeat(300)),
];
const members = texts.map((t) => gzipSync(t));
// A member with FNAME set (flags 8), as gzip(1) writes it.
const named = Buffer.concat([
  Buffer.from([0x1f, 0x8b, 8, 8, 0, 0, 0, 0, 0, 3]),
  Buffer.from("page.html\0"),
  (members[2] as Buffer).subarray(10),
]);
const file = Buffer.concat([members[0], members[1], named, members[3]] as Buffer[]);
const plain = Buffer.concat(texts);

describe("GzipMembers", () => {
  it("inflates member after member and maps each member's plain start to its file offset", async () => {
    const m = new GzipMembers(chunks(file), 1000);
    expect((await inflate(m)).equals(plain)).toBe(true);
    const fileStarts = [0, members[0]!.length, members[0]!.length + members[1]!.length];
    fileStarts.push(fileStarts[2]! + named.length);
    let at = 0;
    for (const [i, t] of texts.entries()) {
      expect(m.fileOffsetOf(at)).toBe(1000 + fileStarts[i]!);
      // Inside a member: that member's start.
      expect(m.fileOffsetOf(at + 1)).toBe(1000 + fileStarts[i]!);
      at += t.length;
    }
  });

  it("streams the rest past a member too large to hold, its offset that member's", async () => {
    const m = new GzipMembers(chunks(file), 0, 100_000);
    expect((await inflate(m)).equals(plain)).toBe(true);
    expect(m.fileOffsetOf(plain.length - 1)).toBe(members[0]!.length);
  });

  it("ends with what a member the file ends inside holds, as far as it inflates", async () => {
    const cut = file.subarray(0, file.length - 20);
    for (const max of [undefined, 100_000]) {
      const out = await inflate(new GzipMembers(chunks(cut), 0, max));
      const whole = plain.length - texts[3]!.length;
      expect(out.subarray(0, whole).equals(plain.subarray(0, whole)), String(max)).toBe(true);
      expect(out.length, String(max)).toBeGreaterThan(whole);
      expect(out.length, String(max)).toBeLessThan(plain.length);
    }
  });

  it("throws GzipCutShort, with the member's offset, when the file ends before a member holds anything", async () => {
    const cut = file.subarray(0, file.length - members[3]!.length + 6);
    const err = await inflate(new GzipMembers(chunks(cut), 0)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GzipCutShort);
    expect((err as GzipCutShort).fileOffset).toBe(file.length - members[3]!.length);
    expect(gunzipSync(file).equals(plain)).toBe(true);
  });
});
