import { describe, expect, it } from "vitest";
import { consumerOf, functionNames, queueNames, topology } from "../../infra/topology";

describe("topology", () => {
  it("names, for each queue, the one function its trigger names", () => {
    expect(Object.fromEntries(queueNames.map((q) => [q, consumerOf(q)]))).toEqual({
      discover: "discover",
      fetch: "fetch",
      dedup: "dedup",
    });
    for (const q of queueNames) {
      const consumers = functionNames.filter((f) => {
        const t = topology.functions[f].trigger;
        return t.kind === "queue" && t.queue === q;
      });
      expect(consumers).toHaveLength(1);
    }
  });
});
