/**
 * A connection reset before any response (what a kept-alive socket the server dropped looks like)
 * costs one retry on a fresh connection, not a failure; a second reset is a network_error.
 */
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient } from "../../../shared/fetch/http";

describe("HttpClient and connection resets", () => {
  const seen = new Map<string, number>();
  let base = "";
  /** How many times each path is reset before it is answered. */
  const resets: Record<string, number> = { "/once": 1, "/always": 99 };
  // A raw TCP server, so a reset is a real RST before any byte of a response.
  const server = createServer((socket) => {
    socket.once("data", (chunk) => {
      const path = chunk.toString("latin1").split(" ")[1] ?? "/";
      const n = (seen.get(path) ?? 0) + 1;
      seen.set(path, n);
      if (n <= (resets[path] ?? 0)) {
        socket.resetAndDestroy();
        return;
      }
      const body = "<!doctype html><html><body><p>hello</p></body></html>";
      socket.end(
        `HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
      );
    });
  });
  const client = new HttpClient({ userAgent: "storytrail-test/1", allowPrivateAddresses: true });

  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const addr = server.address();
    base = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
  });
  afterAll(async () => {
    await client.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it("retries a reset once on a fresh connection", async () => {
    const r = await client.fetch(`${base}/once`, { accept: "html" });
    expect(r.ok, r.ok ? "" : r.detail).toBe(true);
    expect(seen.get("/once")).toBe(2);
  });

  it("gives up after the second reset with network_error", async () => {
    const r = await client.fetch(`${base}/always`, { accept: "html" });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toBe("network_error");
    expect(seen.get("/always")).toBe(2);
  });
});
