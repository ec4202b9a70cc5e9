/**
 * What a function's log line carries: the fields the runbook's Logs Insights queries read and what
 * finds the invocation, not the function's name, ARN and memory size (its log group says those).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { localLambdaContext } from "../../../infra/local/lambda-context";
import { functionLogger } from "../../../shared/aws/function-logger";
import { type LogLine, logLinesOf } from "../../support/log-lines";

/** The log lines `run` prints (warnings and errors go to stderr: Lambda ingests both). */
async function linesOf(run: () => void): Promise<LogLine[]> {
  return (await logLinesOf(async () => run())).lines;
}

const context = localLambdaContext({
  functionName: "storytrail-fetch-abc",
  memoryMB: 275,
  timeoutSeconds: 60,
  region: "us-east-1",
});

describe("function log lines", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("carry level, message, timestamp, service, the request id and the line's own fields", async () => {
    vi.stubEnv(
      "_X_AMZN_TRACE_ID",
      "Root=1-67a1b2c3-0123456789abcdef01234567;Parent=0123456789abcdef;Sampled=0",
    );
    const logger = functionLogger("storytrail-fetch");
    logger.addContext(context);
    const [line] = await linesOf(() =>
      logger.warn("transient fetch failure", {
        correlation_id: "ab12",
        url: "https://example.com/a",
        reason: "http_5xx",
      }),
    );
    expect(line).toEqual({
      level: "WARN",
      message: "transient fetch failure",
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      service: "storytrail-fetch",
      cold_start: expect.any(Boolean),
      function_request_id: context.awsRequestId,
      correlation_id: "ab12",
      url: "https://example.com/a",
      reason: "http_5xx",
    });
  });

  it("carry the X-Ray trace id when the request is traced", async () => {
    vi.stubEnv(
      "_X_AMZN_TRACE_ID",
      "Root=1-67a1b2c3-0123456789abcdef01234567;Parent=0123456789abcdef;Sampled=1",
    );
    const logger = functionLogger("storytrail-dedup");
    logger.addContext(context);
    const [line] = await linesOf(() => logger.error("failed", { error: "boom" }));
    expect(line).toMatchObject({ level: "ERROR", xray_trace_id: "1-67a1b2c3-0123456789abcdef01234567" });
  });

  it("print errors as Powertools does and no context keys outside Lambda", async () => {
    const logger = functionLogger("storytrail-discover");
    const [line] = await linesOf(() => logger.error("discovery failed", new Error("source down")));
    expect(line).toMatchObject({
      message: "discovery failed",
      error: { name: "Error", message: "source down" },
    });
    expect(Object.keys(line ?? {}).sort()).toEqual(["error", "level", "message", "service", "timestamp"]);
  });
});
