/** DynamoDB Local's start: a port taken before Java binds it, and a start that fails for another reason. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startDynamoLocal, stopChild } from "../../../infra/local/dynamodb-local";

describe("startDynamoLocal", () => {
  let taken: Server;
  const accepted: Socket[] = [];
  let takenPort: number;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "storytrail-dynamo-local-"));
    // Accepts a connection and never answers, as a port's other owner may.
    taken = createServer((socket) => accepted.push(socket));
    takenPort = await new Promise<number>((resolve) =>
      taken.listen(0, "127.0.0.1", () => resolve((taken.address() as { port: number }).port)),
    );
  });
  afterAll(async () => {
    for (const socket of accepted) socket.destroy();
    await new Promise((r) => taken.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it("starts again on another port when the one it chose was taken before Java bound it", async () => {
    const offered: number[] = [];
    const ports = async () => {
      const port = offered.length === 0 ? takenPort : await freePort();
      offered.push(port);
      return port;
    };
    const dynamo = await startDynamoLocal(undefined, ports);
    try {
      expect(offered).toHaveLength(2);
      expect(offered[0]).toBe(takenPort);
      expect(dynamo.endpoint).toBe(`http://127.0.0.1:${offered[1]}`);
    } finally {
      await stopChild(dynamo.child);
    }
    expect(dynamo.child.exitCode !== null || dynamo.child.signalCode !== null).toBe(true);
  });

  it("says why when it fails for another reason, and does not try again", async () => {
    const file = join(dir, "not-a-directory");
    writeFileSync(file, "x");
    let offers = 0;
    const ports = async () => {
      offers++;
      return freePort();
    };
    const err = await startDynamoLocal(file, ports).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/DynamoDB Local exited with code \d+; its last output:\n/);
    expect(offers).toBe(1);
  });
});
