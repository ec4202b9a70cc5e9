/**
 * One invocation's custom metrics, published together at its end: one EMF document per dimension value
 * (plus one for the metrics without a dimension), each metric holding every value the invocation added
 * as an EMF value array. CloudWatch takes each value of the array as a sample, so Sum, SampleCount,
 * Average, Minimum and Maximum are those of one document per value: alarms and dashboards read the same
 * numbers. A fetch batch of one host's 10 pages printed 20–30 documents of ~230 bytes (one per page
 * and metric group); it now prints 2 or 3. Per-source figures (`tally`) are summed into one value per
 * metric and source, in a document that names the source as a plain property, not a dimension: no
 * custom metric per source, and Logs Insights sums scalars (it cannot sum an EMF value array).
 */
import { Metrics, type MetricUnit } from "@aws-lambda-powertools/metrics";

type Unit = (typeof MetricUnit)[keyof typeof MetricUnit];

export interface InvocationMetricsOptions {
  readonly namespace: string;
  /** The Powertools `service` dimension every document carries. */
  readonly serviceName: string;
}

export class InvocationMetrics {
  /** A Powertools Metrics buffer per dimension value ("" for the service-only document). */
  readonly #documents = new Map<string, Metrics>();
  /** Per property value (e.g. a source id), per metric: its unit and the sum of what was tallied. */
  readonly #tallies = new Map<string, Map<string, { unit: Unit; sum: number }>>();

  constructor(private readonly options: InvocationMetricsOptions) {}

  /** Adds one value of `metric`, under `dimension` (name and value) when given. */
  add(metric: string, unit: Unit, value: number, dimension?: { name: string; value: string }): void {
    const key = dimension ? `${dimension.name}\u0000${dimension.value}` : "";
    let doc = this.#documents.get(key);
    if (!doc) {
      // A default dimension, which Powertools keeps when it flushes early (at 100 values of a metric).
      const defaultDimensions = dimension ? { [dimension.name]: dimension.value } : undefined;
      doc = new Metrics({ ...this.options, ...(defaultDimensions ? { defaultDimensions } : {}) });
      this.#documents.set(key, doc);
    }
    doc.addMetric(metric, unit, value);
  }

  /** Adds `value` to this invocation's sum of `metric` for one value of a property (e.g. a source). */
  tally(metric: string, unit: Unit, value: number, property: { name: string; value: string }): void {
    const key = `${property.name}\u0000${property.value}`;
    let sums = this.#tallies.get(key);
    if (!sums) {
      sums = new Map();
      this.#tallies.set(key, sums);
    }
    const prev = sums.get(metric);
    sums.set(metric, { unit, sum: (prev?.sum ?? 0) + value });
  }

  /** Prints every document once and empties the buffers (the handler's `finally`: a failed batch too). */
  publish(): void {
    for (const doc of this.#documents.values()) doc.publishStoredMetrics();
    this.#documents.clear();
    for (const [key, sums] of this.#tallies) {
      const [name, value] = key.split("\u0000") as [string, string];
      const doc = new Metrics(this.options);
      doc.addMetadata(name, value);
      for (const [metric, { unit, sum }] of sums) doc.addMetric(metric, unit, sum);
      doc.publishStoredMetrics();
    }
    this.#tallies.clear();
  }
}
