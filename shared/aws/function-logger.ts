/**
 * The functions' logger (Powertools Logger, JSON lines) and what each line carries: level, message,
 * timestamp, service, and of the Lambda context what finds a line's invocation (the request id, as on
 * Lambda's REPORT line; cold_start), with the X-Ray trace id only when the request is traced. Powertools'
 * default also printed the function's name, ARN and memory size and its sampling rate, the same on every
 * line of a function's log group (the group names the function: `@log` in Logs Insights): 165 bytes a
 * line measured locally (more in Lambda: longer names, the trace id): 0.31 GB of Logs ingestion per million
 * articles when fetch and dedup each wrote a line per article (they write one per batch now).
 */
import { LogFormatter, Logger, LogItem } from "@aws-lambda-powertools/logger";
import type { LogAttributes, UnformattedAttributes } from "@aws-lambda-powertools/logger/types";

/** Whether Lambda traces this request (its trace header, set per invocation, says Sampled=1). */
function tracedRequest(): boolean {
  return /(?:^|;)Sampled=1(?:;|$)/.test(process.env._X_AMZN_TRACE_ID ?? "");
}

class FunctionLogFormatter extends LogFormatter {
  formatAttributes(attributes: UnformattedAttributes, additionalLogAttributes: LogAttributes): LogItem {
    const context = attributes.lambdaContext;
    return new LogItem({
      attributes: {
        level: attributes.logLevel,
        message: attributes.message,
        timestamp: this.formatTimestamp(attributes.timestamp),
        service: attributes.serviceName,
        cold_start: context?.coldStart,
        function_request_id: context?.awsRequestId,
        // Empty keys are left out of the line.
        xray_trace_id: tracedRequest() ? attributes.xRayTraceId : undefined,
      },
    }).addAttributes(additionalLogAttributes);
  }
}

export function functionLogger(serviceName: string): Logger {
  return new Logger({ serviceName, logFormatter: new FunctionLogFormatter() });
}
