/**
 * One invocation's custom metrics, published together at its end: one EMF document per dimension value
 * (plus one for the metrics without a dimension), each metric holding every value the invocation added
 * as an EMF value array. CloudWatch takes each value of the array as a sample, so Sum, SampleCount,
 * Average, Minimum and Maximum are those of one document per value: alarms and dashboards read the same
 * numbers. A fetch batch of one host's 10 pages printed 20–30 documents of ~230 bytes (one per page
 * and metric group); it now prints 2 or 3.
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

  /** Prints every document once and empties the buffers (the handler's `finally`: a failed batch too). */
  publish(): void {
    for (const doc of this.#documents.values()) doc.publishStoredMetrics();
    this.#documents.clear();
  }
}
