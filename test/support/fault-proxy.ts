/**
 * A loopback HTTP proxy in front of an emulator that answers chosen requests with an AWS error instead
 * of forwarding them: faults injected on the wire, below the real SDK clients (whose retries with
 * backoff then run as they do against AWS), without a hook in the handlers, which build their own
 * clients from the environment as in Lambda.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Fault {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export interface ProxiedRequest {
  readonly method: string;
  readonly path: string;
  /** DynamoDB's operation (X-Amz-Target), e.g. "DynamoDB_20120810.PutItem". */
  readonly target: string;
  readonly body: string;
}

export interface FaultProxy {
  readonly endpoint: string;
  /** Requests answered with a fault. */
  readonly injected: ProxiedRequest[];
  close(): Promise<void>;
}

export const dynamoThrottle: Fault = {
  status: 400,
  headers: { "content-type": "application/x-amz-json-1.0" },
  body: JSON.stringify({
    __type: "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
    message: "Rate of requests exceeds the allowed throughput (injected)",
  }),
};

export const s3SlowDown: Fault = {
  status: 503,
  headers: { "content-type": "application/xml" },
  body: '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate (injected)</Message></Error>',
};

export async function startFaultProxy(
  target: string,
  faultFor: (req: ProxiedRequest) => Fault | null,
): Promise<FaultProxy> {
  const upstream = new URL(target);
  const injected: ProxiedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const seen: ProxiedRequest = {
        method: req.method ?? "GET",
        path: req.url ?? "/",
        target: String(req.headers["x-amz-target"] ?? ""),
        body: body.toString("utf8"),
      };
      const fault = faultFor(seen);
      if (fault) {
        injected.push(seen);
        res.writeHead(fault.status, fault.headers).end(fault.body);
        return;
      }
      const out = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      out.on("error", () => res.destroy());
      out.end(body);
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    injected,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
