/** Plain-text tables for the benchmark report (also valid Markdown). */

export type Cell = string | number;

export function formatTable(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const text = rows.map((r) => r.map((c) => String(c)));
  const widths = header.map((h, i) => Math.max(h.length, ...text.map((r) => (r[i] ?? "").length)));
  const numeric = header.map((_, i) =>
    rows.every((r) => typeof r[i] === "number" || /^[-+$\d.,×%x ]+[a-zA-Z/]*$/.test(String(r[i] ?? ""))),
  );
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (numeric[i] ? `${"-".repeat(w + 1)}:` : "-".repeat(w + 2))).join("|")}|`;
  return [line(header), rule, ...text.map(line)].join("\n");
}

/** n with a fixed number of significant figures, for rates and dollars. */
export function sig(n: number, digits = 3): string {
  if (!Number.isFinite(n)) return String(n);
  if (n === 0) return "0";
  const mag = Math.floor(Math.log10(Math.abs(n)));
  const decimals = Math.max(0, digits - 1 - mag);
  return n.toLocaleString("en-US", { maximumFractionDigits: decimals, minimumFractionDigits: decimals });
}

export function ratio(n: number): string {
  return `${sig(n, 3)}×`;
}

/**
 * Runs each contender in interleaved rounds (A B C, A B C, …) so that noise from a shared machine
 * hits all of them alike, and returns per contender the median items per CPU-second and per
 * wall-second over the rounds.
 */
export function interleaved(
  contenders: readonly { name: string; round: () => number }[],
  rounds: number,
): Map<string, { cpuRate: number; wallRate: number }> {
  const cpu = new Map<string, number[]>();
  const wall = new Map<string, number[]>();
  for (const c of contenders) c.round(); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (const c of contenders) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const n = c.round();
      const w = (performance.now() - t0) / 1000;
      const u = process.cpuUsage(c0);
      (cpu.get(c.name) ?? cpu.set(c.name, []).get(c.name)!).push(n / ((u.user + u.system) / 1e6));
      (wall.get(c.name) ?? wall.set(c.name, []).get(c.name)!).push(n / w);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  return new Map(
    contenders.map((c) => [
      c.name,
      { cpuRate: median(cpu.get(c.name)!), wallRate: median(wall.get(c.name)!) },
    ]),
  );
}
