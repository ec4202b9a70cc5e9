/**
 * The log lines a handler prints while `run` runs: Powertools writes JSON lines, INFO and DEBUG to stdout,
 * WARN and ERROR to stderr (Lambda ingests both). Lines that are not a logger's (no `level`) are left out.
 */
import { vi } from "vitest";

export type LogLine = Record<string, unknown> & { level: string; message: string };

export async function logLinesOf<T>(run: () => Promise<T>): Promise<{ result: T; lines: LogLine[] }> {
  const printed: string[] = [];
  const capture = (chunk: unknown) => {
    printed.push(...String(chunk).split("\n").filter(Boolean));
    return true;
  };
  const spies = [
    vi.spyOn(process.stdout, "write").mockImplementation(capture),
    vi.spyOn(process.stderr, "write").mockImplementation(capture),
  ];
  let result: T;
  try {
    result = await run();
  } finally {
    for (const s of spies) s.mockRestore();
  }
  const lines = printed.flatMap((l) => {
    try {
      const parsed = JSON.parse(l) as Record<string, unknown>;
      return typeof parsed.level === "string" ? [parsed as LogLine] : [];
    } catch {
      return [];
    }
  });
  return { result, lines };
}

/** A handler's logger reads its level when the handler is made: `make` runs with POWERTOOLS_LOG_LEVEL at
 * `level` (the suite's is WARN), which is restored after. */
export function atLogLevel<T>(level: "DEBUG" | "INFO", make: () => T): T {
  const before = process.env.POWERTOOLS_LOG_LEVEL;
  process.env.POWERTOOLS_LOG_LEVEL = level;
  try {
    return make();
  } finally {
    if (before === undefined) delete process.env.POWERTOOLS_LOG_LEVEL;
    else process.env.POWERTOOLS_LOG_LEVEL = before;
  }
}
