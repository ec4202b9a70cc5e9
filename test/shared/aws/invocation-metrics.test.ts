/** An invocation's metrics: one EMF document per dimension value, every value added in its array. */
import { MetricUnit } from "@aws-lambda-powertools/metrics";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { InvocationMetrics } from "../../../shared/aws/invocation-metrics";

/** What `run` prints on stdout and stderr, line by line. */
function printedBy(run: () => void): { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const spies = [
    vi
      .spyOn(process.stdout, "write")
      .mockImplementation((c) => out.push(...String(c).split("\n").filter(Boolean)) > 0),
    vi
      .spyOn(process.stderr, "write")
      .mockImplementation((c) => err.push(...String(c).split("\n").filter(Boolean)) > 0),
  ];
  try {
    run();
  } finally {
    for (const s of spies) s.mockRestore();
  }
  return { out, err };
}

describe("InvocationMetrics", () => {
  beforeEach(() => vi.stubEnv("POWERTOOLS_METRICS_DISABLED", "false"));
  afterEach(() => vi.unstubAllEnvs());
  const options = { namespace: "test", serviceName: "fetch" };

  it("prints one document per dimension value at publish, each value in the metric's array", () => {
    const metrics = new InvocationMetrics(options);
    const a = { name: "source_id", value: "a" };
    const { out } = printedBy(() => {
      for (const v of [1, 0, 1]) metrics.add("WithHeadline", MetricUnit.Count, v, a);
      metrics.add("WithHeadline", MetricUnit.Count, 1, { name: "source_id", value: "b" });
      metrics.add("Drops", MetricUnit.Count, 2);
    });
    expect(out).toEqual([]); // nothing before publish
    const docs = printedBy(() => metrics.publish()).out.map((l) => JSON.parse(l));
    expect(docs).toHaveLength(3);
    expect(docs[0]).toMatchObject({ service: "fetch", source_id: "a", WithHeadline: [1, 0, 1] });
    expect(docs[0]._aws.CloudWatchMetrics[0].Dimensions).toEqual([["service", "source_id"]]);
    expect(docs[1]).toMatchObject({ source_id: "b", WithHeadline: 1 });
    expect(docs[2]).toMatchObject({ service: "fetch", Drops: 2 });
    expect(docs[2]._aws.CloudWatchMetrics[0].Dimensions).toEqual([["service"]]);
    // Published once: the next invocation starts empty, and an empty one prints nothing, not a warning.
    expect(printedBy(() => metrics.publish())).toEqual({ out: [], err: [] });
  });

  it("keeps the dimension when Powertools flushes early, at 100 values of a metric", () => {
    const metrics = new InvocationMetrics(options);
    const { out } = printedBy(() => {
      for (let i = 0; i < 101; i++)
        metrics.add("Outcomes", MetricUnit.Count, 1, { name: "outcome", value: "x" });
      metrics.publish();
    });
    const docs = out.map((l) => JSON.parse(l));
    expect(docs.map((d) => [d.outcome, [d.Outcomes].flat().length])).toEqual([
      ["x", 100],
      ["x", 1],
    ]);
  });
});
