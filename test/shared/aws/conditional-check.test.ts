/** One test for a refused conditional write, on DynamoDB Local's real errors. */
import { CreateTableCommand } from "@aws-sdk/client-dynamodb";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { destroyClients, makeClients } from "../../../shared/aws/clients";
import { isConditionalCheckFailure } from "../../../shared/aws/conditional-check";
import { uniquePrefix } from "../../support/unique-prefix";

describe("isConditionalCheckFailure", () => {
  const clients = makeClients(inject("endpoints"));
  const table = `${uniquePrefix("cond")}t`;
  beforeAll(async () => {
    await clients.dynamo.send(
      new CreateTableCommand({
        TableName: table,
        KeySchema: [{ AttributeName: "k", KeyType: "HASH" }],
        AttributeDefinitions: [{ AttributeName: "k", AttributeType: "S" }],
        BillingMode: "PAY_PER_REQUEST",
      }),
    );
  });
  afterAll(() => destroyClients(clients));

  const caught = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: unknown) => e,
    );

  it("is true for a write whose condition failed, and false for other errors", async () => {
    const put = () =>
      clients.doc.send(
        new PutCommand({
          TableName: table,
          Item: { k: "a" },
          ConditionExpression: "attribute_not_exists(k)",
        }),
      );
    expect(await caught(put())).toBeNull();
    expect(isConditionalCheckFailure(await caught(put()))).toBe(true);
    const missing = await caught(
      clients.doc.send(new PutCommand({ TableName: `${table}-none`, Item: { k: "a" } })),
    );
    expect(missing).not.toBeNull();
    expect(isConditionalCheckFailure(missing)).toBe(false);
    expect(isConditionalCheckFailure(new Error("ConditionalCheckFailedException"))).toBe(false);
    expect(isConditionalCheckFailure(undefined)).toBe(false);
  });
});
