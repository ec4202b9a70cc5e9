/** The SQS client (discover and fetch send to queues). */
import { SQSClient } from "@aws-sdk/client-sqs";
import { announceClients, defaultRegion, type Endpoints, serviceConfig } from "./client-config";

export function makeSqsClient(endpoints: Endpoints = {}, region = defaultRegion()): SQSClient {
  // Emulators hand out queue URLs whose host is not the endpoint: send to the endpoint.
  const sqs = new SQSClient({
    ...serviceConfig(endpoints.sqs, region),
    useQueueUrlAsEndpoint: !endpoints.sqs,
  });
  announceClients({ sqs });
  return sqs;
}
