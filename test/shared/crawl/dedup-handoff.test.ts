import { describe, expect, it } from "vitest";
import { DedupBatch, sendingAtOnce } from "../../../shared/crawl/dedup-handoff";
import type { DedupQueue } from "../../../shared/crawl/ports";
import type { DedupMessage } from "../../../shared/records";

const message = (id: string): DedupMessage => ({
  article_id: id,
  url: `https://example.com/${id}`,
  publication: "Example",
  source_id: "src",
  headline: null,
  published_at: null,
  collected_at: "2026-12-05T10:00:00.000Z",
  fingerprint: {},
});

/** A dedup queue that logs each send (and refuses them when `refuse`). */
function queue(log: string[], refuse = false): DedupQueue {
  return {
    send: async (ms) => {
      if (refuse) throw new Error("queue down");
      log.push(`send ${ms.map((m) => m.article_id).join(",")}`);
    },
  };
}

describe("dedup handoff: the message first, then the page's outcome", () => {
  it("sends at once, then records", async () => {
    const log: string[] = [];
    await sendingAtOnce(queue(log)).hand(message("a"), async () => void log.push("recorded a"));
    expect(log).toEqual(["send a", "recorded a"]);
  });

  it("holds a batch's messages, sends them in one request, then records each page", async () => {
    const log: string[] = [];
    const batch = new DedupBatch<string>(queue(log));
    for (const id of ["a", "b", "c"])
      await batch.for(id).hand(message(id), async () => void log.push(`recorded ${id}`));
    expect(log).toEqual([]);
    expect(await batch.flush()).toEqual([]);
    expect(log).toEqual(["send a,b,c", "recorded a", "recorded b", "recorded c"]);
    expect(await batch.flush()).toEqual([]); // nothing held twice
  });

  it("records no outcome when the send fails, and names every page held", async () => {
    const log: string[] = [];
    const batch = new DedupBatch<string>(queue(log, true));
    for (const id of ["a", "b"])
      await batch.for(id).hand(message(id), async () => void log.push(`recorded ${id}`));
    const failures = await batch.flush();
    expect(failures.map((f) => [f.key, f.sent])).toEqual([
      ["a", false],
      ["b", false],
    ]);
    expect(log).toEqual([]);
  });

  it("names a page sent whose outcome could not be recorded", async () => {
    const batch = new DedupBatch<string>(queue([]));
    await batch.for("a").hand(message("a"), async () => {});
    await batch.for("b").hand(message("b"), async () => {
      throw new Error("frontier down");
    });
    expect((await batch.flush()).map((f) => [f.key, f.sent, String(f.error)])).toEqual([
      ["b", true, "Error: frontier down"],
    ]);
  });
});
