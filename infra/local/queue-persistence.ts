/**
 * fauxqs keeps queues in memory only, so a local run that stops with messages left (a signal, an
 * emulator restart) copies every queue, DLQs included, to the data directory, and the next start sends
 * them back: the run resumes where it stopped, nothing lost. Each message keeps its FIFO group and
 * deduplication id; the file is removed once restored, so a message is never restored twice. A message
 * not visible (fetch put it back until its host's slot, seconds away in a local run) is waited for.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import { SQS_MAX_DELAY_MS } from "../../shared/aws/queue-sender";

interface SavedMessage {
  readonly body: string;
  readonly group?: string;
  readonly dedup?: string;
}

/** Queue URLs by a stable name (e.g. "fetch", "fetch-dlq"), so a restart with new URLs finds its file. */
export type NamedQueues = Readonly<Record<string, string>>;

const fileOf = (dir: string, name: string) => join(dir, `${name}.jsonl`);

/** The longest a message put back or delayed until a slot can be away (SQS's longest delay): saving
 * waits for it. */
const MAX_AWAY_MS = SQS_MAX_DELAY_MS;

/** Messages of the queue not visible now (put back or delayed until a slot, or in a handler still). */
async function notVisible(sqs: SQSClient, url: string): Promise<number> {
  const out = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: url,
      AttributeNames: ["ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed"],
    }),
  );
  const a = out.Attributes ?? {};
  return (
    Number(a.ApproximateNumberOfMessagesNotVisible ?? 0) + Number(a.ApproximateNumberOfMessagesDelayed ?? 0)
  );
}

/** Moves every message of each queue into `dir` (the queues are left empty). Returns the count. */
export async function saveQueues(sqs: SQSClient, queues: NamedQueues, dir: string): Promise<number> {
  mkdirSync(dir, { recursive: true });
  let n = 0;
  for (const [name, url] of Object.entries(queues)) {
    const saved: SavedMessage[] = [];
    const until = Date.now() + MAX_AWAY_MS;
    for (;;) {
      const out = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: url,
          MaxNumberOfMessages: 10,
          VisibilityTimeout: 300,
          WaitTimeSeconds: 1,
          MessageSystemAttributeNames: ["MessageGroupId", "MessageDeduplicationId"],
        }),
      );
      const messages = out.Messages ?? [];
      if (messages.length === 0) {
        if ((await notVisible(sqs, url)) === 0) break;
        if (Date.now() > until)
          throw new Error(`${name}: messages still not visible after ${MAX_AWAY_MS} ms`);
        continue;
      }
      for (const m of messages) {
        saved.push({
          body: m.Body ?? "",
          ...(m.Attributes?.MessageGroupId ? { group: m.Attributes.MessageGroupId } : {}),
          ...(m.Attributes?.MessageDeduplicationId ? { dedup: m.Attributes.MessageDeduplicationId } : {}),
        });
      }
      // Written before the delete: a crash in between restores a message twice, which every handler
      // takes as a redelivery (idempotent), rather than losing it.
      writeFileSync(fileOf(dir, name), saved.map((s) => JSON.stringify(s)).join("\n"));
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: url,
          Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle ?? "" })),
        }),
      );
    }
    n += saved.length;
  }
  return n;
}

/** Sends back what `saveQueues` kept, then removes the files. Returns the count. */
export async function restoreQueues(sqs: SQSClient, queues: NamedQueues, dir: string): Promise<number> {
  let n = 0;
  for (const [name, url] of Object.entries(queues)) {
    const file = fileOf(dir, name);
    if (!existsSync(file)) continue;
    const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
    for (const line of lines) {
      const m = JSON.parse(line) as SavedMessage;
      await sqs.send(
        new SendMessageCommand({
          QueueUrl: url,
          MessageBody: m.body,
          ...(m.group ? { MessageGroupId: m.group } : {}),
          ...(m.dedup ? { MessageDeduplicationId: m.dedup } : {}),
        }),
      );
      n++;
    }
    rmSync(file);
  }
  return n;
}
