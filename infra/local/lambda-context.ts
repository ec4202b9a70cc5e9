/**
 * The `context` Lambda passes a handler, for local invocations: the function's name, memory and, above
 * all, its remaining time (the topology's timeout), which handlers use to budget their work. An abort
 * signal (a local run being stopped) takes the remaining time to zero, so a handler winds down the
 * way it would just before its timeout.
 */
import { randomUUID } from "node:crypto";
import type { Context } from "aws-lambda";

export interface LocalContextOptions {
  readonly functionName: string;
  readonly memoryMB: number;
  readonly timeoutSeconds: number;
  readonly region: string;
  readonly signal?: AbortSignal;
  readonly now?: () => number;
}

export function localLambdaContext(opts: LocalContextOptions): Context {
  const now = opts.now ?? Date.now;
  const deadline = now() + opts.timeoutSeconds * 1000;
  const unsupported = () => {
    throw new Error("callback-style completion is not supported by the local runtime");
  };
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: opts.functionName,
    functionVersion: "$LATEST",
    invokedFunctionArn: `arn:aws:lambda:${opts.region}:000000000000:function:${opts.functionName}`,
    memoryLimitInMB: String(opts.memoryMB),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${opts.functionName}`,
    logStreamName: "local",
    getRemainingTimeInMillis: () => (opts.signal?.aborted ? 0 : Math.max(0, deadline - now())),
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
  };
}
