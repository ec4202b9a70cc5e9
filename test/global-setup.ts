/** Starts the local emulators once for the whole suite; each test creates its own tables and queues. */
import type { TestProject } from "vitest/node";
import { type Emulators, startEmulators } from "../infra/local/emulators";

declare module "vitest" {
  export interface ProvidedContext {
    endpoints: { dynamodb: string; sqs: string; s3: string };
  }
}

let emulators: Emulators | undefined;

export async function setup(project: TestProject): Promise<void> {
  emulators = await startEmulators();
  project.provide("endpoints", emulators.endpoints);
}

export async function teardown(): Promise<void> {
  await emulators?.stop();
}
