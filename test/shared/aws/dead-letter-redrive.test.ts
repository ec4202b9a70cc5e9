/** Redrive on fauxqs: a DLQ's messages go back to their queue, counted; the CLI too. */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { DeleteMessageCommand, ReceiveMessageCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LocalRuntime } from "../../../infra/local/runtime";
import { redriveDeadLetters } from "../../../shared/aws/dead-letter-redrive";
import { uniquePrefix } from "../../support/unique-prefix";

const repo = join(import.meta.dirname, "../../..");

describe("dead-letter redrive", () => {
  let runtime: LocalRuntime;
  let prefix: string;

  beforeAll(async () => {
    prefix = uniquePrefix("redrive");
    runtime = await LocalRuntime.start({ endpoints: inject("endpoints"), prefix });
  });
  afterAll(async () => runtime?.close());

  const park = async (count: number, queue: "fetch" | "dedup") => {
    for (let i = 0; i < count; i++)
      await runtime.clients.sqs.send(
        new SendMessageCommand({
          QueueUrl: runtime.resources.deadLetterQueueUrls[queue],
          MessageBody: JSON.stringify({ n: i }),
        }),
      );
  };

  const receiveAll = async (url: string) => {
    const got: { body: string }[] = [];
    for (;;) {
      const { Messages = [] } = await runtime.clients.sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: url,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 0,
          VisibilityTimeout: 60,
        }),
      );
      if (Messages.length === 0) return got;
      // Delete what was read, so that the loop ends when the queue is empty.
      for (const m of Messages)
        await runtime.clients.sqs.send(
          new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle }),
        );
      got.push(...Messages.map((m) => ({ body: m.Body ?? "" })));
    }
  };

  it("moves every parked fetch message back (the fetch queue is standard) and leaves the DLQ empty", async () => {
    await park(23, "fetch");
    const result = await redriveDeadLetters(
      runtime.clients.sqs,
      runtime.resources.deadLetterQueueUrls.fetch,
      runtime.resources.queueUrls.fetch,
    );
    expect(result).toEqual({ moved: 23, failed: 0 });
    const back = await receiveAll(runtime.resources.queueUrls.fetch);
    expect(back.map((m) => JSON.parse(m.body).n).sort((a, b) => a - b)).toEqual([...Array(23).keys()]);
    expect(await receiveAll(runtime.resources.deadLetterQueueUrls.fetch)).toEqual([]);
  });

  it("storytrail redrive --max moves that many from a stack's dedup DLQ and prints the count", async () => {
    await park(5, "dedup");
    const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          join(repo, "bin/storytrail.js"),
          "redrive",
          "--queue",
          "dedup",
          "--stack",
          prefix.slice(0, -1),
          "--endpoint",
          inject("endpoints").sqs,
          "--max",
          "3",
        ],
        { cwd: repo },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("dedup: 3 moved from the dead-letter queue back to the queue, 0 refused");
    expect(await receiveAll(runtime.resources.queueUrls.dedup)).toHaveLength(3);
    expect(await receiveAll(runtime.resources.deadLetterQueueUrls.dedup)).toHaveLength(2);
  });
});
