/** The emulators as a local run starts them: DynamoDB Local's JVM with the client compiler only. */
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
});
