/**
 * Counts every AWS request a client set makes, with what AWS bills for it: DynamoDB capacity units
 * (asked for with ReturnConsumedCapacity=TOTAL; DynamoDB Local answers it, but reports transactional
 * writes at the standard rate, so those are doubled here as DynamoDB bills them), SQS 64 KB chunks,
 * S3 requests and stored bytes. Attach it through shared/aws/clients.ts `observeClients`.
 */
import type { AwsClients } from "../shared/aws/clients";
import { sqsBilledRequests, writeUnits } from "./cost-model";

export interface MeteredRequest {
  /** Who made it: a function name, or "runtime" for what Lambda's event source mapping does. */
  readonly label: string;
  readonly service: "dynamodb" | "sqs" | "s3";
  readonly op: string;
  /** Physical table, queue URL or bucket. */
  readonly resource: string;
  readonly rru: number;
  readonly wru: number;
  /** Per table when a request spans several (batch, transaction). */
  readonly byTable: Readonly<Record<string, { rru: number; wru: number }>>;
  /** SQS requests as billed (64 KB chunks); 0 for other services. */
  readonly sqsBilled: number;
  readonly fifo: boolean;
  /** Messages a ReceiveMessage returned. */
  readonly received: number;
  /** Bytes of an S3 PutObject body. */
  readonly putBytes: number;
  readonly failed: boolean;
}

const CAPACITY_OPS = new Set([
  "GetItem",
  "PutItem",
  "UpdateItem",
  "DeleteItem",
  "Query",
  "Scan",
  "BatchGetItem",
  "BatchWriteItem",
  "TransactWriteItems",
  "TransactGetItems",
]);
const WRITE_OPS = new Set(["PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"]);
const TRANSACT_OPS = new Set(["TransactWriteItems", "TransactGetItems"]);

interface Capacity {
  TableName?: string;
  CapacityUnits?: number;
}

type Input = Record<string, unknown>;

function bytes(s: unknown): number {
  return typeof s === "string" ? Buffer.byteLength(s) : 0;
}

function sqsPayload(op: string, input: Input, output: Input): number {
  const attrs = (a: unknown) =>
    Object.entries((a ?? {}) as Record<string, { StringValue?: string; DataType?: string }>).reduce(
      (s, [k, v]) => s + Buffer.byteLength(k) + bytes(v.StringValue) + bytes(v.DataType),
      0,
    );
  if (op === "SendMessage") return bytes(input.MessageBody) + attrs(input.MessageAttributes);
  if (op === "SendMessageBatch")
    return ((input.Entries ?? []) as Input[]).reduce(
      (s, e) => s + bytes(e.MessageBody) + attrs(e.MessageAttributes),
      0,
    );
  if (op === "ReceiveMessage")
    return ((output.Messages ?? []) as Input[]).reduce(
      (s, m) => s + bytes(m.Body) + attrs(m.MessageAttributes),
      0,
    );
  return 0;
}

function bodyBytes(body: unknown): number {
  if (typeof body === "string") return Buffer.byteLength(body);
  if (body instanceof Uint8Array) return body.byteLength;
  return 0;
}

/** Write items in a request, for a failed write (a failed conditional write is billed too). */
function writeItems(op: string, input: Input): number {
  if (op === "TransactWriteItems") return ((input.TransactItems ?? []) as unknown[]).length;
  if (op === "BatchWriteItem")
    return Object.values((input.RequestItems ?? {}) as Record<string, unknown[]>).reduce(
      (s, r) => s + r.length,
      0,
    );
  return 1;
}

/** The table a request names (a transaction's first item's, a batch's first table). */
function tableOf(input: Input): string {
  if (typeof input.TableName === "string") return input.TableName;
  const first = ((input.TransactItems ?? []) as Record<string, Input>[])[0];
  const op = first ? Object.values(first)[0] : undefined;
  if (op && typeof op.TableName === "string") return op.TableName;
  return Object.keys((input.RequestItems ?? {}) as Input)[0] ?? "?";
}

/** map[key], created with make() when absent. */
export function entry<T>(map: Record<string, T>, key: string, make: () => T): T {
  const found = map[key];
  if (found !== undefined) return found;
  const made = make();
  map[key] = made;
  return made;
}

const zero = () => ({ rru: 0, wru: 0 });

export class RequestMeter {
  readonly requests: MeteredRequest[] = [];

  /** Adds the meter to the clients given; every request they send is recorded under `label`. */
  attach(clients: Partial<AwsClients>, label: string): void {
    const add = (service: MeteredRequest["service"], stack: AwsClients["dynamo"]["middlewareStack"]) =>
      stack.add(
        (next, context) => async (args) => {
          const op = String(context.commandName ?? "").replace(/Command$/, "");
          const input = args.input as Input;
          if (service === "dynamodb" && CAPACITY_OPS.has(op)) input.ReturnConsumedCapacity = "TOTAL";
          try {
            const out = await next(args);
            this.record(label, service, op, input, out.output as unknown as Input, false);
            return out;
          } catch (err) {
            this.record(label, service, op, input, {}, true);
            throw err;
          }
        },
        { step: "initialize", name: `storytrailRequestMeter-${service}`, override: true },
      );
    // The document client shares the low-level client's middleware stack.
    if (clients.dynamo) add("dynamodb", clients.dynamo.middlewareStack);
    if (clients.sqs) add("sqs", clients.sqs.middlewareStack as never);
    if (clients.s3) add("s3", clients.s3.middlewareStack as never);
  }

  private record(
    label: string,
    service: MeteredRequest["service"],
    op: string,
    input: Input,
    output: Input,
    failed: boolean,
  ): void {
    const byTable: Record<string, { rru: number; wru: number }> = {};
    let rru = 0;
    let wru = 0;
    if (service === "dynamodb" && CAPACITY_OPS.has(op)) {
      const write = WRITE_OPS.has(op);
      const factor = TRANSACT_OPS.has(op) ? 2 : 1;
      const cc = output.ConsumedCapacity as Capacity | Capacity[] | undefined;
      const list = cc === undefined ? [] : Array.isArray(cc) ? cc : [cc];
      for (const c of list) {
        const units = (c.CapacityUnits ?? 0) * factor;
        const t = entry(byTable, c.TableName ?? "?", zero);
        if (write) t.wru += units;
        else t.rru += units;
      }
      if (list.length === 0 && write) {
        // Failed (e.g. conditional check): DynamoDB still bills the write; count the minimum.
        const t = entry(byTable, tableOf(input), zero);
        t.wru += writeItems(op, input) * writeUnits(0, factor === 2);
      }
      for (const t of Object.values(byTable)) {
        rru += t.rru;
        wru += t.wru;
      }
    }
    const resource = String(input.TableName ?? input.QueueUrl ?? input.Bucket ?? "");
    this.requests.push({
      label,
      service,
      op,
      resource,
      rru,
      wru,
      byTable,
      sqsBilled: service === "sqs" ? sqsBilledRequests(sqsPayload(op, input, output)) : 0,
      fifo: service === "sqs" && resource.endsWith(".fifo"),
      received: op === "ReceiveMessage" ? ((output.Messages ?? []) as unknown[]).length : 0,
      putBytes: op === "PutObject" ? bodyBytes(input.Body) : 0,
      failed,
    });
  }

  /** Request counts by label and operation, e.g. { fetch: { "dynamodb:UpdateItem": 12 } }. */
  counts(): Record<string, Record<string, number>> {
    const out: Record<string, Record<string, number>> = {};
    for (const r of this.requests) {
      const m = entry(out, r.label, () => ({}) as Record<string, number>);
      const k = `${r.service}:${r.op}`;
      m[k] = (m[k] ?? 0) + 1;
    }
    return out;
  }
}
