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

describe("GzipMembers reading ahead on the thread pool", () => {
  it("inflates a member whose deflate data holds the gzip magic (a false size hint, too large or too small)", async () => {
    // Random bytes are stored, not compressed: the magic, with a claimed size before it, is in the member.
    const huge = Buffer.from([0xff, 0xff, 0xff, 0x7f, 0x1f, 0x8b, 8]);
    const tiny = Buffer.from([0, 0, 0, 0, 0x1f, 0x8b, 8]);
    const texts2 = [
      Buffer.concat([randomBytes(5000), huge, randomBytes(5000)]),
      Buffer.from("b ".repeat(100)),
    ];
    const texts3 = [Buffer.concat([randomBytes(100), tiny, randomBytes(90_000)]), Buffer.from("c")];
    for (const ts of [texts2, texts3]) {
      const ms = ts.map((t) => gzipSync(t));
      const first = ms[0]!;
      expect(first.subarray(10, first.length - 8).indexOf(Buffer.from([0x1f, 0x8b, 8]))).toBeGreaterThan(0);
      const m = new GzipMembers(chunks(Buffer.concat(ms), 4096), 7);
      expect((await inflate(m)).equals(Buffer.concat(ts))).toBe(true);
      expect(m.fileOffsetOf(ts[0]!.length)).toBe(7 + first.length);
    }
  });

  it("inflates a member larger than its largest output buffer (1 MB) whole", async () => {
    const big = randomBytes(2_500_000);
    const file2 = Buffer.concat([gzipSync(big), gzipSync("after")]);
    const m = new GzipMembers(chunks(file2, 256 * 1024), 0);
    expect((await inflate(m)).equals(Buffer.concat([big, Buffer.from("after")]))).toBe(true);
    expect(m.fileOffsetOf(big.length)).toBe(file2.length - gzipSync("after").length);
  });

  it("reads the file no further than the member after the one being read", async () => {
    const many = Array.from({ length: 40 }, (_, i) => gzipSync(`member ${i} `.repeat(200)));
    const whole = Buffer.concat(many);
    let pulled = 0;
    async function* counted(): AsyncGenerator<Uint8Array> {
      for await (const c of chunks(whole, 100)) {
        pulled += c.length;
        yield c;
      }
    }
    const it = new GzipMembers(counted(), 0).plain()[Symbol.asyncIterator]();
    await it.next();
    // The first member, the next (inflating), and up to the magic of the third (its size hint).
    const ahead = many[0]!.length + many[1]!.length + 3 + 100;
    expect(pulled).toBeLessThanOrEqual(ahead);
    await it.next();
    expect(pulled).toBeLessThanOrEqual(ahead + many[2]!.length);
    await it.return(undefined);
  });
});
