/** The emulators as a local run starts them: DynamoDB Local's JVM with the client compiler only and no
 * telemetry; fauxqs on the loopback address alone. */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startEmulators } from "../../../infra/local/emulators";

/** This process's children whose command is `java`, with their environment. */
function javaChildren(): { pid: number; env: string[] }[] {
  const out: { pid: number; env: string[] }[] = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      if (ppid === process.pid && comm === "java")
        out.push({ pid: Number(d), env: readFileSync(`/proc/${d}/environ`, "utf8").split("\0") });
    } catch {} // a process that ended meanwhile
  }
  return out;
}

/** The local addresses (hex, as /proc/net/tcp{,6} write them) listening on a port. */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  return ["/proc/net/tcp", "/proc/net/tcp6"].flatMap((file) =>
    readFileSync(file, "utf8")
      .split("\n")
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((f) => f[1]?.endsWith(`:${hexPort}`) && f[3] === "0A") // 0A: LISTEN
      .map((f) => f[1]?.split(":")[0] ?? ""),
  );
}

describe("startEmulators", () => {
  it("runs DynamoDB Local's JVM with the client compiler only, beside the user's own options, telemetry off, and leaves this process's environment as it was", async () => {
    if (process.platform !== "linux") return; // reads /proc
    const before = process.env.JDK_JAVA_OPTIONS;
    const telemetry = process.env.DDB_LOCAL_TELEMETRY;
    process.env.JDK_JAVA_OPTIONS = "-Duser.own=1";
    try {
      const emulators = await startEmulators();
      try {
        const java = javaChildren();
        expect(java).toHaveLength(1);
        expect(java[0]?.env).toContain("JDK_JAVA_OPTIONS=-Duser.own=1 -XX:TieredStopAtLevel=1");
        expect(java[0]?.env).toContain(`DDB_LOCAL_TELEMETRY=${telemetry ?? "0"}`);
        expect(process.env.JDK_JAVA_OPTIONS).toBe("-Duser.own=1");
        expect(process.env.DDB_LOCAL_TELEMETRY).toBe(telemetry);
      } finally {
        await emulators.stop();
      }
    } finally {
      if (before === undefined) delete process.env.JDK_JAVA_OPTIONS;
      else process.env.JDK_JAVA_OPTIONS = before;
    }
  });

  it("keeps fauxqs (the run's queues and buckets) on the loopback address", async () => {
    if (process.platform !== "linux") return; // reads /proc
    const emulators = await startEmulators();
    try {
      expect(listeningAddresses(Number(new URL(emulators.endpoints.sqs).port))).toEqual(["0100007F"]);
    } finally {
      await emulators.stop();
    }
  });
});
