/** The DynamoDB client and the document client over it (every function needs these). */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { announceClients, defaultRegion, type Endpoints, serviceConfig } from "./client-config";

export interface DynamoClients {
  readonly dynamo: DynamoDBClient;
  readonly doc: DynamoDBDocumentClient;
}

export function makeDynamoClients(endpoints: Endpoints = {}, region = defaultRegion()): DynamoClients {
  const dynamo = new DynamoDBClient({ ...serviceConfig(endpoints.dynamodb, region), maxAttempts: 5 });
  const clients = {
    dynamo,
    doc: DynamoDBDocumentClient.from(dynamo, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    }),
  };
  announceClients(clients);
  return clients;
}
