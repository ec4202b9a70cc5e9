/** Pages returned to the fetch queue on fauxqs: which are sent again and which put back in flight, and
 * what happens when either request fails. */
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { FetchQueueReturn, type ReturnedPage } from "../../../shared/aws/fetch-queue-return";
import { MAX_IN_FLIGHT_WAIT_MS, QueuePutBack } from "../../../shared/aws/queue-put-back";
import { FetchQueueSender } from "../../../shared/aws/queue-sender";
import { makeSqsClient } from "../../../shared/aws/sqs-client";
import type { FetchMessage } from "../../../shared/records";
import { uniquePrefix } from "../../support/unique-prefix";

const message = (name: string): FetchMessage => ({
  url: `https://news.example/${name}`,
  source_id: "s",
  publication: "News",
  discovered_from: "https://news.example/sitemap.xml",
  run_id: "r",
});

describe("FetchQueueReturn", () => {
  let sqs: SQSClient;
  beforeAll(() => {
    sqs = makeSqsClient(inject("endpoints"));
  });
  afterAll(() => sqs?.destroy());

  /** A fresh queue holding the named pages, received (in flight for 60 s). */
  async function received(names: string[]): Promise<{ queueUrl: string; handles: Map<string, string> }> {
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: uniquePrefix("return") }));
    const queueUrl = QueueUrl as string;
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: names.map((n, i) => ({ Id: String(i), MessageBody: JSON.stringify(message(n)) })),
      }),
    );
    const handles = new Map<string, string>();
    while (handles.size < names.length) {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 60 }),
      );
      for (const m of Messages)
        handles.set(
          (JSON.parse(m.Body ?? "{}") as FetchMessage).url.split("/").pop() ?? "",
          m.ReceiptHandle ?? "",
        );
    }
    return { queueUrl, handles };
  }

  /** Sends again to `sendTo`, puts back on `putBackTo`, at a fixed clock. */
  const returnsVia = (sendTo: string, putBackTo: string, now: number) =>
    new FetchQueueReturn(new FetchQueueSender(sqs, sendTo), new QueuePutBack(sqs, putBackTo), () => now);

  const counts = async (queueUrl: string) => {
    const { Attributes = {} } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["All"] }),
    );
    return {
      visible: Number(Attributes.ApproximateNumberOfMessages),
      inFlight: Number(Attributes.ApproximateNumberOfMessagesNotVisible),
      delayed: Number(Attributes.ApproximateNumberOfMessagesDelayed),
    };
  };

  it("sends again a page come early or due past the in-flight wait, and puts the others back until their slot", async () => {
    const { queueUrl, handles } = await received(["early", "soon", "later", "due"]);
    const now = Date.now();
    const page = (name: string, at: number, early = false): ReturnedPage => ({
      receiptHandle: handles.get(name) ?? "",
      message: message(name),
      at,
      early,
    });
    const out = await returnsVia(queueUrl, queueUrl, now).return([
      page("early", now + 1_000, true),
      page("soon", now + 30_000),
      page("later", now + MAX_IN_FLIGHT_WAIT_MS + 60_000),
      page("due", now),
    ]);
    expect(out.sentAgain.map((p) => p.message.url.split("/").pop())).toEqual(["early", "later"]);
    expect(out.putBack.map((p) => p.message.url.split("/").pop())).toEqual(["soon", "due"]);
    expect(out.refused.size).toBe(0);
    expect(out.sendAgainError).toBeUndefined();
    expect(out.putBackError).toBeUndefined();
    // Two copies delayed; "due" visible again at once; the originals of the copies stay in flight (the
    // event source deletes them) beside "soon".
    expect(await counts(queueUrl)).toEqual({ visible: 1, inFlight: 3, delayed: 2 });
    // The early page's copy comes at its slot, carrying it.
    await new Promise((r) => setTimeout(r, 1_500));
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10 }),
    );
    const copy = Messages.map((m) => JSON.parse(m.Body ?? "{}") as FetchMessage).find((m) =>
      m.url.endsWith("/early"),
    );
    expect(copy?.slot_at).toBe(now + 1_000);
  });

  it("puts every page back when it cannot send them again, and names the handles of those it cannot put back", async () => {
    const { queueUrl, handles } = await received(["a", "b"]);
    const now = Date.now();
    const pages = ["a", "b"].map((n) => ({
      receiptHandle: handles.get(n) ?? "",
      message: message(n),
      at: now + MAX_IN_FLIGHT_WAIT_MS + 1_000,
      early: false,
    }));
    const gone = `${queueUrl}-gone`;
    const cannotSend = await returnsVia(gone, queueUrl, now).return(pages);
    expect(cannotSend.sendAgainError).toBeDefined();
    expect(cannotSend.sentAgain).toEqual([]);
    expect(cannotSend.putBack).toEqual(pages);
    expect(cannotSend.refused.size).toBe(0);

    const cannotPutBack = await returnsVia(gone, gone, now).return(pages);
    expect(cannotPutBack.putBackError).toBeDefined();
    expect([...cannotPutBack.refused].sort()).toEqual(pages.map((p) => p.receiptHandle).sort());
  });
});
